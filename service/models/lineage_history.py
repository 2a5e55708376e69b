"""The answer of `GET /lineage/{id}/diff`: what changed around an asset between two
instants, in the traversal's own node and edge shapes."""

from __future__ import annotations

from pydantic import Field

from service.models.common import ResponseModel
from service.models.lineage import Direction, GraphEdge, GraphNode, RedactedNode


class LineageChanges(ResponseModel):
    nodes: list[RedactedNode | GraphNode] = Field(
        description="sorted by id; an asset the caller may not read is a stand-in (`redacted` true)"
    )
    edges: list[GraphEdge] = Field(description="sorted by source, then target")


class ChangedEdge(GraphEdge):
    previous_transformation: str | None = Field(
        default=None, description="the transformation at `from` (`transformation`: at `to`)"
    )


class EdgeChanges(ResponseModel):
    edges: list[ChangedEdge] = Field(description="sorted by source, then target")


class LineageDiff(ResponseModel):
    root: str
    direction: Direction
    depth: int
    from_: str = Field(alias="from", description="the earlier instant, as the graph stores it")
    to: str = Field(description="the later instant (now when not given)")
    added: LineageChanges = Field(
        description="in the neighbourhood at `to` and not at `from`, as shown at `to`"
    )
    removed: LineageChanges = Field(
        description="in the neighbourhood at `from` and not at `to`, as shown at `from`"
    )
    changed: EdgeChanges = Field(
        description="edges in both whose transformation changed (in neither list above)"
    )
    truncated: bool = Field(description="either neighbourhood was cut at `limit`")
    redacted: int = Field(
        0,
        description="stand-ins in this answer (nodes and edge ends): assets the caller may "
        "not read, each one stand-in wherever it appears",
    )
