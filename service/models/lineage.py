"""Lineage bodies, column-level lineage included."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, StringConstraints, Tag
from pydantic.config import JsonDict

from service.models.common import (
    END_DATASET,
    END_ID,
    NO_CONTROLS_PATTERN,
    AssetId,
    ResponseModel,
    StrictModel,
    no_controls,
)
from service.models.datasets import DatasetIn

MAX_TRANSFORMATION = 1_048_576
Transformation = Annotated[str, StringConstraints(max_length=MAX_TRANSFORMATION)]
Direction = Literal["upstream", "downstream", "both"]
# What a column mapping does to the values it carries (service.domain.column_kinds).
MappingKind = Literal["identity", "transformation", "masking", "aggregation", "indirect", "unknown"]
MAX_COLUMN_MAPPINGS = 10_000
MAX_COLUMN_NAME = 512


ColumnName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_COLUMN_NAME),
    no_controls("a column name"),
    Field(json_schema_extra={"pattern": NO_CONTROLS_PATTERN}),
]


class ColumnMapIn(StrictModel):
    """Column `source` of the edge's source asset feeds column `target` of its target."""

    source: ColumnName
    target: ColumnName
    transformation: Transformation | None = None
    kind: MappingKind | None = Field(
        default=None,
        description="what the mapping does to the values (`identity`, `transformation`, "
        "`masking`, `aggregation`, `indirect`, `unknown`); absent, it is read from "
        "`transformation` (OpenLineage labels such as `DIRECT/IDENTITY`, else a SQL "
        "expression: `md5(email)` is masking, `count(id)` aggregation), `unknown` without "
        "one. It decides whether column tags follow the mapping (docs/column-classification.md)",
    )


def _end_kind(value: Any) -> str:
    return END_DATASET if isinstance(value, dict | DatasetIn) else END_ID


# An edge's end: an asset id (or a former id), or a dataset, which resolves to the
# asset holding it (a placeholder holding it is made when nobody does). The tags
# pick the branch by the value's shape, so an error names that branch alone; they
# are left out of the locations a problem shows (`service.models.common.UNION_TAGS`).
EdgeEnd = Annotated[
    Annotated[AssetId, Tag(END_ID)] | Annotated[DatasetIn, Tag(END_DATASET)],
    Discriminator(_end_kind),
]


_END = (
    "an asset id (or a former id of an asset merged into another), or a dataset "
    "`{namespace, name}`: the asset holding it, a placeholder holding it when nobody does"
)


class EdgeIn(StrictModel):
    source: EdgeEnd = Field(description="where data flows from: " + _END)
    target: EdgeEnd = Field(description="where data flows to: " + _END)
    transformation: Transformation | None = None
    columns: Annotated[list[ColumnMapIn], Field(max_length=MAX_COLUMN_MAPPINGS)] | None = Field(
        default=None,
        description="column mappings, added to those the edge has (a pair of columns is "
        "one mapping; a given transformation replaces its old one)",
    )


class ColumnMapping(ResponseModel):
    source: str
    target: str
    transformation: str | None = None
    origins: list[str] = Field(default_factory=list)


class Edge(ResponseModel):
    source: str
    target: str
    transformation: str | None = None
    origins: list[str] = Field(default_factory=list)
    columns: list[ColumnMapping] = Field(
        default_factory=list, description="column lineage along this edge, by (source, target)"
    )
    created_at: str
    updated_at: str


class EdgePage(ResponseModel):
    items: list[Edge]
    next_cursor: str | None


class MappingCounts(ResponseModel):
    created: int = Field(description="column mappings that did not exist before")
    existing: int = Field(description="distinct column mappings that already existed")


class Retired(ResponseModel):
    """What a writer let go of when its new set replaced its old one."""

    edges: int = Field(
        default=0, description="edges it asserted before and not now: its assertion withdrawn"
    )
    edges_removed: int = Field(
        default=0,
        description="of those, edges no other origin asserts: they left the graph, each "
        "announced by `lineage.edge.deleted`",
    )
    column_mappings: int = Field(
        default=0, description="column mappings it asserted before and not now"
    )
    column_mappings_removed: int = Field(
        default=0, description="of those, mappings no other origin asserts: they left the graph"
    )

    @property
    def changed(self) -> bool:
        return bool(self.edges or self.column_mappings)


class BulkResult(ResponseModel):
    received: int = Field(description="items in the request")
    created: int = Field(description="edges that did not exist before")
    existing: int = Field(description="distinct pairs that already existed")
    assets_created: int = Field(description="placeholder assets made for unknown ids")
    column_mappings: MappingCounts | None = Field(
        default=None, description="present when the request carried `columns`"
    )
    retired: Retired | None = Field(
        default=None,
        description="present with `replace=true`: what the origin asserted before and this "
        "request left out",
    )


class GraphNode(ResponseModel):
    id: str
    name: str
    type: str
    platform: str | None = None
    tags: list[str] = Field(default_factory=list)
    placeholder: bool = False
    distance: int
    direction: Literal["root", "upstream", "downstream"]


class RedactedNode(GraphNode):
    """A stand-in for an asset the caller may not read (in a private domain where they
    hold no role): its `id` and `name` are `redacted:<n>`, numbering the stand-ins of
    this answer, its `type` is `redacted`, and it tells only `team`; its place in the
    path (distance, side, edges under the stand-in's id) is kept."""

    redacted: Literal[True]
    team: str | None = Field(description="the team owning the asset's domain")


class GraphEdge(ResponseModel):
    source: str
    target: str
    transformation: str | None = None


class Capped(ResponseModel):
    id: str = Field(description="the asset whose neighbours were cut")
    direction: Literal["upstream", "downstream"] = Field(description="the side it was expanded on")
    shown: int = Field(description="neighbours the walk followed (`fanout`, the first by id)")
    total: int = Field(description="neighbours it has on that side")


_SIDE_COUNTS: JsonDict = {
    "type": "object",
    "properties": {
        "downstream": {"type": "integer", "minimum": 0},
        "upstream": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}


class LineageGraph(ResponseModel):
    root: str = Field(description="the root's id, on every page (the node is on the first)")
    direction: Direction
    depth: int
    nodes: list[RedactedNode | GraphNode] = Field(
        description="the nodes in (distance, id) order, the root first on the first page; "
        "an asset the caller may not read is a stand-in (`redacted` true), after the "
        "readable nodes of its distance"
    )
    edges: list[GraphEdge]
    truncated: bool = Field(description="more nodes are left: `next_cursor` is not null")
    next_cursor: str | None = Field(
        description="pass as `cursor` (with the same parameters) for the next page; null "
        "when nothing is left"
    )
    remaining: dict[str, int] = Field(
        description="per asked side (`downstream`, `upstream`), nodes of the neighbourhood "
        "not yet returned after this page",
        json_schema_extra=_SIDE_COUNTS,
    )
    hidden: dict[str, int] = Field(
        description="per asked side, walked nodes the filters hid (the whole neighbourhood's "
        "count, the same on every page; 0 without filters)",
        json_schema_extra=_SIDE_COUNTS,
    )
    capped: list[Capped] = Field(
        description="with `fanout`: the nodes whose neighbours were cut, those of this page "
        "(the root's and hidden nodes' on the first page); empty otherwise"
    )
    redacted: int = Field(
        0, description="stand-ins among this page's `nodes`: assets the caller may not read"
    )


class ColumnRef(ResponseModel):
    asset: str
    column: str


class ColumnNode(ResponseModel):
    asset: str
    column: str
    distance: int = Field(description="fewest hops from the root column (0 for the root)")


class RedactedColumnNode(ColumnNode):
    """A column of an asset the caller may not read: `asset` is the asset's stand-in id
    (`redacted:<n>`, one per asset in the answer) and `column` a stand-in name
    (`redacted:<m>`, one per column in the answer), so neither the asset nor its schema
    shows; it tells only `team`. Its distance and edges are kept."""

    redacted: Literal[True]
    team: str | None = Field(description="the team owning the asset's domain")


class ColumnEdge(ResponseModel):
    source: ColumnRef
    target: ColumnRef
    transformation: str | None = Field(
        default=None, description="null when either end is a stand-in (its SQL names columns)"
    )


class ColumnGraph(ResponseModel):
    root: ColumnRef
    direction: Literal["upstream", "downstream"]
    depth: int
    nodes: list[RedactedColumnNode | ColumnNode]
    edges: list[ColumnEdge]
    truncated: bool
    redacted: int = Field(
        0, description="stand-ins among `nodes`: columns of assets the caller may not read"
    )
