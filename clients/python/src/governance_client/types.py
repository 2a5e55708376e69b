"""The shapes the service answers with, as ``TypedDict``s.

Results are the service's JSON, unchanged: plain dicts that print, compare and
serialise as they are, and that keep any field a newer service adds.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeGuard, TypeVar

__all__ = [
    "Asset",
    "AssetColumn",
    "AssetColumns",
    "AssetFilter",
    "AssetVersion",
    "BulkResult",
    "Capped",
    "ChangedEdge",
    "Column",
    "ColumnEdge",
    "ColumnGraph",
    "ColumnMapping",
    "ColumnMappingInput",
    "ColumnNode",
    "ColumnRef",
    "ColumnTagRule",
    "CypherResult",
    "Dataset",
    "DbtResultsSummary",
    "Delivery",
    "Domain",
    "DomainGrant",
    "DomainRule",
    "DomainRuleKind",
    "Edge",
    "EdgeChanges",
    "EdgeInput",
    "EvaluationSummary",
    "Event",
    "GraphEdge",
    "GraphNode",
    "Health",
    "ImpactChange",
    "ImpactReport",
    "ImpactedAsset",
    "InheritedTag",
    "Items",
    "LineageChanges",
    "LineageDiff",
    "LineageGraph",
    "ManifestAssetCounts",
    "ManifestSummary",
    "Me",
    "OpenLineageResult",
    "Page",
    "PathStep",
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
    "RedactedNode",
    "Retired",
    "Role",
    "ServiceInfo",
    "SideCounts",
    "SqlFailure",
    "SqlResult",
    "SqlStatement",
    "SqlStatementCounts",
    "Team",
    "Token",
    "TokenCreated",
    "User",
    "VersionChange",
    "Violation",
    "Violations",
    "Webhook",
    "WebhookCreated",
    "WebhookTestResult",
    "is_redacted",
]

T = TypeVar("T")
PropertyValue = str | int | float | bool
Direction = Literal["both", "upstream", "downstream"]
ExportFormat = Literal["openlineage", "dot", "mermaid", "csv"]
MappingKind = Literal["identity", "transformation", "masking", "aggregation", "indirect", "unknown"]
Scope = Literal["read", "write", "admin"]
Role = Literal["viewer", "editor", "admin"]
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


class Health(TypedDict):
    """``/healthz`` (``ok``) and ``/readyz`` (``ready``)."""

    status: str


class Column(TypedDict):
    name: str
    type: NotRequired[str | None]
    description: NotRequired[str | None]
    tags: NotRequired[list[str]]


class Dataset(TypedDict):
    """A physical dataset as OpenLineage names it, e.g. ``{"namespace":
    "snowflake://acme-prod", "name": "ANALYTICS.PUBLIC.ORDERS"}``. At most one asset
    holds a dataset; the service stores and answers it normalised by the platform's
    naming rules (Snowflake upper-cases unquoted names, Postgres lower-cases them,
    default ports are added: ``postgres://db`` is ``postgres://db:5432``)."""

    namespace: str
    name: str


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
    dataset: Dataset | None
    """The physical dataset this asset is, normalised; None when it holds none."""
    aliases: list[str]
    """Former ids: assets merged into this one. Any of them still names this asset."""
    placeholder: bool
    created_at: str
    updated_at: str
    version: int
    domain: NotRequired[str | None]
    """The domain the asset is in (None: in none). Read-only: the domains' rules decide."""


class ColumnMappingInput(TypedDict):
    """Column ``source`` of an edge's source asset feeds column ``target`` of its target."""

    source: str
    target: str
    transformation: NotRequired[str | None]


class EdgeInput(TypedDict):
    """One edge to write: data flows from ``source`` into ``target``, each an asset id
    or a dataset (which resolves to the asset holding it; a placeholder
    ``<namespace>/<name>`` is made when none does)."""

    source: str | Dataset
    target: str | Dataset
    transformation: NotRequired[str | None]
    columns: NotRequired[list[ColumnMappingInput] | None]


class ColumnMapping(TypedDict):
    source: str
    target: str
    transformation: str | None
    origins: list[str]


class Edge(TypedDict):
    source: str
    target: str
    transformation: str | None
    origins: list[str]
    columns: NotRequired[list[ColumnMapping]]
    created_at: str
    updated_at: str


class MappingCounts(TypedDict):
    created: int
    existing: int


class Retired(TypedDict):
    """What an origin let go of when a ``replace`` made its new set its whole set."""

    edges: int
    """Edges it asserted before and not now: its assertion withdrawn."""
    edges_removed: int
    """Of those, edges no other origin asserts: they left the graph."""
    column_mappings: int
    column_mappings_removed: int


class BulkResult(TypedDict):
    received: int
    created: int
    existing: int
    assets_created: int
    column_mappings: NotRequired[MappingCounts | None]
    """Present when the request carried column mappings."""
    retired: NotRequired[Retired | None]
    """Present with ``replace``: what the origin asserted before and this request left out."""


class GraphNode(TypedDict):
    id: str
    name: str
    type: str
    platform: str | None
    tags: list[str]
    placeholder: bool
    distance: int
    direction: Literal["root", "upstream", "downstream"]


class RedactedNode(TypedDict):
    """A node the caller may not read, in a private domain: a stand-in whose id
    (``redacted:<n>``) numbers it within one answer; edges name it by that id."""

    id: str
    redacted: Literal[True]
    team: str | None
    """The team that owns the node's domain, to ask for access."""
    distance: int


class GraphEdge(TypedDict):
    source: str
    target: str
    transformation: str | None


class Capped(TypedDict):
    """A node whose neighbours a ``fanout`` cut: ``shown`` of ``total`` on ``direction``."""

    id: str
    direction: Literal["upstream", "downstream"]
    shown: int
    total: int


class SideCounts(TypedDict, total=False):
    """A count per asked side."""

    downstream: int
    upstream: int


class LineageGraph(TypedDict):
    """One page of a traversal; ``next_cursor`` (None at the end) continues it."""

    root: str
    direction: Direction
    depth: int
    nodes: list[GraphNode | RedactedNode]
    """Readable nodes, and stand-ins (``redacted: True``) for the others; see ``is_redacted``."""
    edges: list[GraphEdge]
    truncated: bool
    next_cursor: str | None
    remaining: SideCounts
    """Nodes of the neighbourhood not yet returned after this page, per asked side."""
    hidden: SideCounts
    """Walked nodes the filters hid, per asked side (the same on every page)."""
    capped: list[Capped]
    redacted: NotRequired[int]
    """How many of ``nodes`` are stand-ins for nodes the caller may not read."""


class LineageChanges(TypedDict):
    nodes: list[GraphNode]
    edges: list[GraphEdge]


class ChangedEdge(GraphEdge):
    previous_transformation: str | None
    """The transformation at ``from`` (``transformation`` is the one at ``to``)."""


class EdgeChanges(TypedDict):
    edges: list[ChangedEdge]


LineageDiff = TypedDict(
    "LineageDiff",
    {
        "root": str,
        "direction": Direction,
        "depth": int,
        "from": str,
        "to": str,
        "added": LineageChanges,
        "removed": LineageChanges,
        "changed": EdgeChanges,
        "truncated": bool,
    },
)
"""How an asset's neighbourhood changed between two moments: the nodes and edges
present at ``to`` but not at ``from`` (``added``, as shown at ``to``), the other way
round (``removed``, as shown at ``from``), and the edges in both whose
transformation changed (``changed``)."""


class ColumnRef(TypedDict):
    asset: str
    column: str


class ColumnNode(TypedDict):
    asset: str
    column: str
    distance: int


class ColumnEdge(TypedDict):
    source: ColumnRef
    target: ColumnRef
    transformation: str | None


class ColumnGraph(TypedDict):
    """The lineage of one column: reached columns nearest first, the root at distance 0."""

    root: ColumnRef
    direction: Literal["upstream", "downstream"]
    depth: int
    nodes: list[ColumnNode]
    edges: list[ColumnEdge]
    truncated: bool


class PathStep(TypedDict):
    asset: str
    column: str
    kind: MappingKind | None
    """The kind of the mapping into this column; None for the tagged column."""


InheritedTag = TypedDict("InheritedTag", {"tag": str, "from": ColumnRef, "path": list[PathStep]})
"""A tag a column inherits along column lineage: the column holding it directly
(``from``) and the fewest-mappings ``path`` from there to this column."""


class AssetColumn(TypedDict):
    name: str
    type: str | None
    tags: list[str]
    inherited: list[InheritedTag]


class AssetColumns(TypedDict):
    """An asset's declared columns in their order, then the columns known only to
    column lineage that hold or inherit a tag."""

    asset: str
    columns: list[AssetColumn]


class ColumnTagRule(TypedDict):
    """The mapping kinds that stop a column tag downstream; ``default`` while the tag
    has no rule of its own (``masking``, ``aggregation``, ``indirect``)."""

    tag: str
    stops: list[MappingKind]
    default: bool
    updated_at: str | None


VersionChange = TypedDict(
    "VersionChange",
    {
        "field": str,
        "column": str | None,
        "change": Literal["set", "added", "removed", "retyped", "changed"],
        "from": Any,
        "to": Any,
    },
)
"""One difference from the version before: a field (``change`` ``set``, ``column``
None) with its old and new value, or with ``field`` ``columns`` one column
``added``, ``removed``, ``retyped`` or ``changed`` (``from``/``to``: the column as
declared)."""


class AssetVersion(TypedDict):
    """One version of an asset, as ``assets.list_history`` answers them (newest first)."""

    version: int
    at: str
    actor: str
    """``token:<id>``, ``user:<id>``, or ``system`` for an asset older than its history."""
    deleted: bool
    """True for the version that says the asset was deleted."""
    changes: list[VersionChange]


ImpactChange = TypedDict(
    "ImpactChange",
    {
        "kind": str,
        "asset": str,
        "column": str | None,
        "from": str | None,
        "to": str | None,
        "breaking": bool,
    },
)
"""A difference between a candidate manifest and the stored project: ``kind`` is
``model_removed``, ``column_removed``, ``column_type_changed``, ``test_removed``,
``model_added``, ``column_added``, ``materialization_changed``, ... (``column``,
``from`` and ``to`` None where the kind has none)."""


class ImpactedAsset(TypedDict):
    """An asset (or one of its columns, where column lineage says) downstream of a
    breaking change."""

    asset: str
    column: str | None
    distance: int
    owners: list[str]
    via: list[str]
    """The path from the changed asset (first) to this one (last): asset ids, or
    ``asset.column`` for a column."""


class ImpactReport(TypedDict):
    """What ``lineage.check_manifest`` found; the service wrote nothing."""

    project: str
    changes: list[ImpactChange]
    impacted: list[ImpactedAsset]
    breaking: bool
    depth: int
    """How many hops downstream the walk went at most."""


class AssetChanges(TypedDict):
    created: int
    updated: int


class OpenLineageResult(TypedDict):
    """What ``lineage.ingest_openlineage`` did (added up over its requests)."""

    received: int
    complete: int
    runs: int
    edges: MappingCounts
    column_mappings: MappingCounts
    assets: AssetChanges
    warnings: list[str]


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
    user_id: NotRequired[str | None]
    """The user who made the token; None for one made by the command line."""


class TokenCreated(Token):
    token: str
    """The secret: shown in this answer only."""


class User(TypedDict):
    id: str
    username: str
    display_name: str | None
    role: Role
    disabled: bool
    created_at: str
    updated_at: str
    last_sign_in_at: str | None


class Me(TypedDict):
    """The calling token and its user (None for a token made by the command line)."""

    token: Token
    user: User | None
    user_id: NotRequired[str | None]
    username: NotRequired[str | None]
    role: NotRequired[Role]
    """The global role: the user's, or for a command-line token the one its scope names."""
    scopes: NotRequired[list[Scope]]
    """What the token may do now: its scopes capped by the user's best role anywhere."""
    teams: NotRequired[list[str]]
    """The ids of the teams the user belongs to."""
    domain_roles: NotRequired[dict[str, Role]]
    """The user's role in each domain where they have one (by domain id)."""


class Items(TypedDict, Generic[T]):
    """A whole collection in one answer (teams, domains): no cursor."""

    items: list[T]


class Team(TypedDict):
    id: str
    display_name: str | None
    idp_groups: list[str]
    """Identity-provider groups: at each single sign-on, membership follows them."""
    members: list[str]
    """User ids."""
    created_at: str
    updated_at: str


DomainRuleKind = Literal["asset", "dbt_project", "namespace", "tag"]


class DomainRule(TypedDict):
    """Which assets belong: an ``asset`` id, a ``dbt_project``, an id ``namespace``
    prefix or a ``tag`` (in that order of precedence between domains)."""

    kind: DomainRuleKind
    value: str


class DomainGrant(TypedDict):
    """A role for a team's members inside the domain."""

    team: str
    role: Role


class Domain(TypedDict):
    id: str
    display_name: str | None
    description: str | None
    private: bool
    """Its assets are hidden from callers with no role in it."""
    owner_team: str
    """Implicitly admin of the domain."""
    rules: list[DomainRule]
    grants: list[DomainGrant]
    asset_count: NotRequired[int]
    created_at: str
    updated_at: str


class EdgeCounts(TypedDict):
    created: int
    existing: int
    removed: int


class RuleCounts(TypedDict):
    created: int
    updated: int
    removed: int


class ManifestAssetCounts(TypedDict):
    created: int
    updated: int
    merged: int
    """Placeholders (and other projects' sources) holding a dataset of this manifest,
    merged into the node that defines it."""


class ManifestSummary(TypedDict):
    """What ``lineage.upload_manifest`` did."""

    project: str
    dbt_version: str | None
    dbt_schema_version: str | None
    assets: ManifestAssetCounts
    edges: EdgeCounts
    quality_rules: RuleCounts
    skipped: int
    warnings: list[str]


class SqlStatement(TypedDict):
    """One entry of a query log (what a warehouse's query history exports)."""

    sql: str
    query_id: NotRequired[str | None]
    user: NotRequired[str | None]
    timestamp: NotRequired[str | None]


class SqlStatementCounts(TypedDict):
    received: int
    with_lineage: int
    """Statements that write a table from others."""
    without_lineage: int
    """Reads and DDL: parsed, nothing to write."""
    failed: int
    """Not parsed or not resolved; listed in ``failures``."""


class SqlFailure(TypedDict):
    index: int
    """The statement's position, from 0."""
    message: str
    query_id: str | None


class SqlResult(TypedDict):
    """What ``lineage.ingest_sql`` did (added up over its requests)."""

    origin: str
    """``sql:<source>``: the origin of the edges it wrote."""
    statements: SqlStatementCounts
    edges: MappingCounts
    column_mappings: MappingCounts
    assets_created: int
    """Placeholders made for tables no asset holds."""
    failures: list[SqlFailure]
    warnings: list[str]


class Event(TypedDict):
    """One entry of the event log (also the body of a webhook delivery)."""

    id: str
    seq: int
    type: str
    occurred_at: str
    actor: str | None
    data: dict[str, Any]


class Webhook(TypedDict):
    id: str
    url: str
    types: list[str]
    enabled: bool
    description: str | None
    created_at: str
    updated_at: str
    failing_since: str | None
    disabled_reason: str | None
    last_delivery_at: str | None


class WebhookCreated(Webhook):
    secret: str
    """``whsec_...``: signs every delivery; shown in this answer only."""


class Delivery(TypedDict):
    """One event's delivery to a webhook: ``state`` is pending, delivered, failed
    (given up) or cancelled."""

    id: str
    event_id: str
    event_type: str
    state: str
    attempts: int
    last_status: int | None
    last_error: str | None
    next_attempt_at: str | None
    last_attempt_at: str | None
    delivered_at: str | None
    created_at: str


class WebhookTestResult(TypedDict):
    delivered: bool
    status: int | None
    error: str | None
    duration_ms: float


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


def is_redacted(node: GraphNode | RedactedNode) -> TypeGuard[RedactedNode]:
    """Whether a traversal node is a stand-in for one the caller may not read."""
    return node.get("redacted") is True
