"""Lineage bodies (CONTRACT §3)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from service.models.common import AssetId, ResponseModel, StrictModel

Transformation = Annotated[str, StringConstraints(max_length=1_048_576)]
Direction = Literal["upstream", "downstream", "both"]


class EdgeIn(StrictModel):
    source: AssetId
    target: AssetId
    transformation: Transformation | None = None


class Edge(ResponseModel):
    source: str
    target: str
    transformation: str | None = None
    origins: list[str] = Field(default_factory=list)
    created_at: str
    updated_at: str


class EdgePage(ResponseModel):
    items: list[Edge]
    next_cursor: str | None


class BulkResult(ResponseModel):
    received: int = Field(description="items in the request")
    created: int = Field(description="edges that did not exist before")
    existing: int = Field(description="distinct pairs that already existed")
    assets_created: int = Field(description="placeholder assets made for unknown ids")


class GraphNode(ResponseModel):
    id: str
    name: str
    type: str
    platform: str | None = None
    tags: list[str] = Field(default_factory=list)
    placeholder: bool = False
    distance: int
    direction: Literal["root", "upstream", "downstream"]


class GraphEdge(ResponseModel):
    source: str
    target: str
    transformation: str | None = None


class LineageGraph(ResponseModel):
    root: str
    direction: Direction
    depth: int
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool
