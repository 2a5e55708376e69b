"""The shapes the service answers with, as ``TypedDict``s.

Results are the service's JSON, unchanged: plain dicts that print, compare and
serialise as they are, and that keep any field a newer service adds.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

__all__ = [
    "Asset",
    "BulkResult",
    "Column",
    "Edge",
    "EdgeInput",
    "Event",
    "GraphEdge",
    "GraphNode",
    "LineageGraph",
    "ManifestSummary",
    "Page",
    "PropertyValue",
    "ServiceInfo",
    "Token",
    "TokenCreated",
]

T = TypeVar("T")
PropertyValue = str | int | float | bool
Direction = Literal["both", "upstream", "downstream"]
Scope = Literal["read", "write", "admin"]


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


JSONObject = dict[str, Any]
