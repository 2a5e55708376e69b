"""The shapes the service answers with, as ``TypedDict``s.

Results are the service's JSON, unchanged: plain dicts that print, compare and
serialise as they are, and that keep any field a newer service adds.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

__all__ = [
    "Asset",
    "AssetFilter",
    "BulkResult",
    "Column",
    "CypherResult",
    "DbtResultsSummary",
    "Edge",
    "EdgeInput",
    "EvaluationSummary",
    "Event",
    "GraphEdge",
    "GraphNode",
    "LineageGraph",
    "ManifestSummary",
    "Page",
    "Policy",
    "PolicyEvaluation",
    "PolicySelector",
    "PropertyValue",
    "QualityResult",
    "QualityRule",
    "QueryBody",
    "QueryEdge",
    "QueryNode",
    "QueryResult",
    "ServiceInfo",
    "Token",
    "TokenCreated",
    "Violation",
    "Violations",
]

T = TypeVar("T")
PropertyValue = str | int | float | bool
Direction = Literal["both", "upstream", "downstream"]
Scope = Literal["read", "write", "admin"]
PolicyKind = Literal[
    "require_owner",
    "require_description",
    "require_quality_rule",
    "tag_propagation",
    "restricted_flow",
]
PolicySeverity = Literal["low", "medium", "high", "critical"]
RuleType = Literal[
    "not_null",
    "unique",
    "accepted_values",
    "relationships",
    "range",
    "freshness",
    "row_count",
    "custom",
]
RuleSeverity = Literal["warn", "error"]
RuleStatus = Literal["unknown", "passing", "failing", "error"]
ResultStatus = Literal["pass", "fail", "error"]
ReturnForm = Literal["nodes", "edges", "graph", "paths", "count"]


class Page(TypedDict, Generic[T]):
    """One page of a collection; pass ``next_cursor`` back as ``cursor`` for the next."""

    items: list[T]
    next_cursor: str | None


class ServiceInfo(TypedDict):
    service: str
    version: str
    api_version: str


class Column(TypedDict):
    name: str
    type: NotRequired[str | None]
    description: NotRequired[str | None]
    tags: NotRequired[list[str]]


class Asset(TypedDict):
    id: str
    name: str
    type: str
    platform: str | None
    description: str | None
    owners: list[str]
    tags: list[str]
    columns: list[Column]
    properties: dict[str, PropertyValue]
    placeholder: bool
    created_at: str
    updated_at: str
    version: int


class EdgeInput(TypedDict):
    """One edge to write: data flows from ``source`` into ``target``."""

    source: str
    target: str
    transformation: NotRequired[str | None]


class Edge(TypedDict):
    source: str
    target: str
    transformation: str | None
    origins: list[str]
    created_at: str
    updated_at: str


class BulkResult(TypedDict):
    received: int
    created: int
    existing: int
    assets_created: int


class GraphNode(TypedDict):
    id: str
    name: str
    type: str
    platform: str | None
    tags: list[str]
    placeholder: bool
    distance: int
    direction: Literal["root", "upstream", "downstream"]


class GraphEdge(TypedDict):
    source: str
    target: str
    transformation: str | None


class LineageGraph(TypedDict):
    root: str
    direction: Direction
    depth: int
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool


class Token(TypedDict):
    id: str
    name: str
    scopes: list[str]
    prefix: str
    created_at: str
    expires_at: str | None
    last_used_at: str | None
    revoked_at: str | None
    created_by: NotRequired[str | None]


class TokenCreated(Token):
    token: str
    """The secret: shown in this answer only."""


class AssetCounts(TypedDict):
    created: int
    updated: int


class EdgeCounts(TypedDict):
    created: int
    existing: int
    removed: int


class RuleCounts(TypedDict):
    created: int
    updated: int
    removed: int


class ManifestSummary(TypedDict):
    """What ``lineage.upload_manifest`` did."""

    project: str
    dbt_version: str | None
    dbt_schema_version: str | None
    assets: AssetCounts
    edges: EdgeCounts
    quality_rules: RuleCounts
    skipped: int
    warnings: list[str]


class Event(TypedDict):
    """One entry of the event log (also the body of a webhook delivery)."""

    id: str
    seq: int
    type: str
    occurred_at: str
    actor: str | None
    data: dict[str, Any]


# -- policies -----------------------------------------------------------------


class PolicySelector(TypedDict, total=False):
    """Which assets a policy governs: every criterion given must hold; ``type`` and
    ``platform`` take one value or a list (any of), ``tags`` must all be present."""

    type: str | list[str]
    platform: str | list[str]
    tags: list[str]
    id_prefix: str


class Policy(TypedDict):
    id: str
    name: str
    description: str | None
    kind: str
    enabled: bool
    severity: str
    selector: PolicySelector
    params: dict[str, Any]
    version: int
    created_at: str
    updated_at: str
    evaluated_at: str | None


class Violation(TypedDict):
    asset_id: str
    reason: str
    path: NotRequired[list[str] | None]
    opened_at: str


class Violations(TypedDict):
    """One page of a policy's open violations, ordered by asset id."""

    policy_id: str
    evaluated_at: str | None
    violations: list[Violation]
    next_cursor: str | None


class PolicyEvaluation(TypedDict):
    policy_id: str
    violations: int
    opened: int
    resolved: int


class EvaluationSummary(TypedDict):
    """What ``policies.evaluate`` found, per enabled policy."""

    evaluated_at: str
    policies: list[PolicyEvaluation]


# -- quality ------------------------------------------------------------------


class QualityRule(TypedDict):
    id: str
    asset_id: str
    column: str | None
    name: str
    type: str
    params: dict[str, Any]
    severity: str
    enabled: bool
    status: str
    """unknown, passing, failing or error: follows the newest result by ``run_at``."""
    last_result: dict[str, Any] | None
    origin: NotRequired[str | None]
    version: int
    created_at: str
    updated_at: str


class QualityResult(TypedDict):
    id: str
    rule_id: str
    status: str
    observed_value: Any
    message: str | None
    run_at: str
    recorded_at: str
    source: str
    """``api``, or ``dbt:<invocation_id>`` for dbt run results."""


class DbtResultsSummary(TypedDict):
    """What ``quality.upload_dbt_results`` recorded."""

    received: int
    recorded: int
    unmatched: list[str]
    skipped: int
    ignored: int
    stale: int
    duplicates: int
    failed: list[str]
    """Rules that turned failing with this upload."""
    recovered: list[str]
    """Rules that turned passing with this upload."""


# -- query --------------------------------------------------------------------


class AssetFilter(TypedDict, total=False):
    """FILTER of the query language: every field given must hold; a list means any of."""

    type: str | list[str]
    platform: str | list[str]
    tags_all: str | list[str]
    tags_any: str | list[str]
    owner: str | list[str]
    id_prefix: str | list[str]
    name_contains: str
    placeholder: bool
    has_upstream: bool
    has_downstream: bool
    properties: dict[str, PropertyValue | list[PropertyValue]]


class QueryStart(TypedDict, total=False):
    ids: list[str]
    where: AssetFilter


class QueryTraverse(TypedDict, total=False):
    direction: Direction
    min_depth: int
    max_depth: int
    where: AssetFilter
    through: AssetFilter


QueryPath = TypedDict(
    "QueryPath",
    {
        "from": str,
        "to": str,
        "direction": Direction,
        "max_depth": int,
        "all_shortest": bool,
        "through": AssetFilter,
    },
    total=False,
)
QueryBody = TypedDict(
    "QueryBody",
    {
        "start": QueryStart,
        "traverse": QueryTraverse,
        "path": QueryPath,
        "return": ReturnForm,
        "limit": int,
        "cursor": str | None,
    },
    total=False,
)
"""A JSON query for ``POST /query``: ``start`` (with an optional ``traverse``) or ``path``."""


class QueryNode(TypedDict):
    id: str
    name: str
    type: str
    platform: str | None
    tags: list[str]
    placeholder: bool
    distance: int


class QueryEdge(TypedDict):
    source: str
    target: str
    transformation: str | None


class QueryResult(TypedDict, total=False):
    """The requested parts only (``nodes``, ``edges``, ``paths`` or ``count``), and
    ``next_cursor`` always."""

    nodes: list[QueryNode]
    edges: list[QueryEdge]
    paths: list[list[str]]
    count: int
    truncated: bool
    next_cursor: str | None


class CypherResult(TypedDict):
    columns: list[str]
    rows: list[list[Any]]
    """Each row a list in the order of ``columns``."""
    truncated: bool


JSONObject = dict[str, Any]
