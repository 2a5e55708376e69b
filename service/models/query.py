"""Query facility bodies: the JSON query language and the guarded Cypher
endpoint, requests and answers.

The language is strict: an unknown key or a wrong type is a 422 naming the field.
Rules that tie fields together (start or path, depth ranges, configured limits) are
the compiler's (`service.domain.query.check`), so that each error still names one field.
A depth or page size is at most what the deployment is configured with
(`ConfiguredMaximum`): the schema says so, the compiler (or the Cypher handler) refuses
more.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
)

from service.models.common import INTEGRAL, AssetId, ResponseModel, StrictModel
from service.models.configured import ConfiguredMaximum

Direction = Literal["upstream", "downstream", "both"]
ReturnForm = Literal["nodes", "edges", "graph", "paths", "count"]
MAX_CHOICES = 100
MAX_START_IDS = 1_000
MAX_CYPHER_CHARS = 100_000
PropertyValue = str | int | float | bool


def _listed(value: Any) -> Any:
    """A single value means a list of one: `"table"` is `["table"]`."""
    return value if isinstance(value, list) else [value]


def _lower(values: list[str]) -> list[str]:
    """Types and tags are stored lower-case, so filters match that way."""
    return list(dict.fromkeys(v.lower() for v in values))


def _one_or_many(item: dict[str, Any]) -> WithJsonSchema:
    many = {"type": "array", "items": item, "minItems": 1, "maxItems": MAX_CHOICES}
    return WithJsonSchema({"anyOf": [item, many]})


Text = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
_TEXT_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 1024}
_SCALAR_SCHEMA = {"type": ["string", "number", "boolean"]}
_LISTED = BeforeValidator(_listed)
_CHOICES = Field(min_length=1, max_length=MAX_CHOICES)
AnyOfText = Annotated[list[Text], _LISTED, _CHOICES, _one_or_many(_TEXT_SCHEMA)]
AnyOfLower = Annotated[
    list[Text], _LISTED, _CHOICES, AfterValidator(_lower), _one_or_many(_TEXT_SCHEMA)
]
AnyOfValue = Annotated[list[PropertyValue], _LISTED, _CHOICES, _one_or_many(_SCALAR_SCHEMA)]
PropertyKey = Annotated[str, StringConstraints(min_length=1, max_length=128)]
DEEPEST = ConfiguredMaximum("max_lineage_depth")
Depth = Annotated[int, Field(ge=1), DEEPEST, INTEGRAL]
# Items in a page, rows of a Cypher answer.
Limit = Annotated[int, Field(ge=1), ConfiguredMaximum("max_lineage_nodes"), INTEGRAL]


class Filter(StrictModel):
    """Which assets match: every field given must hold; a list means any of its values."""

    type: AnyOfLower | None = Field(None, description="any of these types (case-insensitive)")
    platform: AnyOfText | None = Field(None, description="any of these platforms")
    tags_all: AnyOfLower | None = Field(None, description="carries every one of these tags")
    tags_any: AnyOfLower | None = Field(None, description="carries at least one of these tags")
    owner: AnyOfText | None = Field(None, description="owned by any of these owners")
    id_prefix: AnyOfText | None = Field(None, description="id starts with any of these")
    name_contains: Text | None = Field(None, description="case-insensitive substring of name")
    placeholder: bool | None = None
    has_upstream: bool | None = Field(
        None, description="has (true) or lacks (false) an incoming lineage edge"
    )
    has_downstream: bool | None = Field(
        None, description="has (true) or lacks (false) an outgoing lineage edge"
    )
    properties: Annotated[dict[PropertyKey, AnyOfValue], Field(max_length=50)] | None = Field(
        None, description="user properties: each key must equal (one of) the value(s)"
    )


def _given(name: str) -> dict[str, Any]:
    """The field is there and not null."""
    return {"required": [name], "properties": {name: {"type": "object"}}}


class Start(StrictModel):
    """Where a query starts: `ids` or `where`, exactly one."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {"required": ["ids"], "properties": {"ids": {"type": "array"}}},
                {"required": ["where"], "properties": {"where": {"type": "object"}}},
            ]
        }
    )

    ids: Annotated[list[AssetId], Field(min_length=1, max_length=MAX_START_IDS)] | None = Field(
        None, description="unknown ids match nothing"
    )
    where: Filter | None = None


class Traverse(StrictModel):
    direction: Direction = Field(
        "both", description="`both` walks upstream and downstream (never zig-zag)"
    )
    min_depth: Annotated[int, Field(ge=0), DEEPEST, INTEGRAL] = Field(
        1, description="0 adds the start assets themselves at distance 0"
    )
    max_depth: Depth = 5
    where: Filter | None = Field(None, description="which reached assets are returned")
    through: Filter | None = Field(
        None, description="which assets a path may pass through (its intermediate assets)"
    )


class PathQuery(StrictModel):
    from_: AssetId = Field(alias="from")
    to: AssetId
    direction: Direction = Field(
        "downstream",
        description="downstream: from feeds to; upstream: to feeds from; both: either",
    )
    max_depth: Depth = 10
    all_shortest: bool = False
    through: Filter | None = Field(None, description="which intermediate assets are allowed")


class Query(StrictModel):
    """`start` (with an optional `traverse`) or `path`, one of the two."""

    # The shape rules `service.domain.query.check` applies that a schema can say; the
    # cross-field ones (from differs from to, min_depth <= max_depth, configured
    # limits) are in the operation's description.
    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {
                    "required": ["start"],
                    "properties": {"start": {"type": "object"}},
                    "not": {
                        "anyOf": [
                            _given("path"),
                            {"properties": {"return": {"const": "paths"}}, "required": ["return"]},
                        ]
                    },
                },
                {
                    "required": ["path"],
                    "properties": {"path": {"type": "object"}},
                    "not": {"anyOf": [_given("start"), _given("traverse")]},
                },
            ]
        }
    )

    start: Start | None = None
    traverse: Traverse | None = None
    path: PathQuery | None = None
    return_: ReturnForm | None = Field(
        None, alias="return", description="default: paths for a path query, else nodes"
    )
    limit: Limit = Field(100, description="items per page (nodes, edges or paths)")
    cursor: Annotated[str, StringConstraints(min_length=1, max_length=4096)] | None = Field(
        None, description="`next_cursor` of the previous page"
    )


class QueryNode(ResponseModel):
    id: str
    name: str
    type: str
    platform: str | None = None
    tags: list[str] = Field(default_factory=list)
    placeholder: bool = False
    distance: int = Field(description="fewest hops from the start (or along the path)")


class QueryEdge(ResponseModel):
    source: str
    target: str
    transformation: str | None = None


class QueryResult(ResponseModel):
    """The requested parts only; `next_cursor` always."""

    nodes: list[QueryNode] | None = None
    edges: list[QueryEdge] | None = None
    paths: list[list[str]] | None = Field(
        None,
        description="each path as its asset ids; an asset the caller may not read is "
        "`redacted:<n>`, the same stand-in wherever it recurs in this answer",
    )
    count: int | None = None
    truncated: bool | None = Field(
        None, description="path queries: more paths exist than the service enumerates"
    )
    next_cursor: str | None = None


class CypherQuery(StrictModel):
    query: Annotated[str, StringConstraints(min_length=1, max_length=MAX_CYPHER_CHARS)]
    parameters: dict[str, Any] = Field(default_factory=dict)
    limit: Limit = Field(1_000, description="most rows returned; then truncated=true")


class CypherResult(ResponseModel):
    columns: list[str]
    rows: list[list[Any]]
    truncated: bool
