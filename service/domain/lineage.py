"""Pure lineage logic: validating and folding edge batches, assembling graph answers,
for assets and for their columns."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from service.errors import FieldError, Unprocessable
from service.models.lineage import (
    ColumnEdge,
    ColumnNode,
    ColumnRef,
    EdgeIn,
    GraphEdge,
    GraphNode,
)

_EDGES = TypeAdapter(list[EdgeIn])
# Column node keys are `asset id + "\n" + column name`: an asset id holds no whitespace,
# so the first newline splits a key unambiguously, and a key prefix finds an asset's
# columns through the unique index.
COLUMN_SEPARATOR = "\n"


def validate_edges(items: Any, max_items: int) -> list[EdgeIn]:
    """Every item checked before anything is written; 422 lists each bad item by index."""
    if not isinstance(items, list):
        raise Unprocessable(
            "The body must be a JSON array of edges.",
            errors=[FieldError(("body",), "must be an array", "list_type")],
        )
    if not items:
        raise Unprocessable(
            "At least one edge is required.",
            errors=[FieldError(("body",), "must hold 1 or more items", "too_short")],
        )
    if len(items) > max_items:
        raise Unprocessable(
            f"At most {max_items} edges per request; got {len(items)}. Split the request.",
            code="too_many_items",
            errors=[FieldError(("body",), f"more than {max_items} items", "too_long")],
        )
    errors: list[FieldError] = []
    try:
        edges = _EDGES.validate_python(items, strict=True)
    except ValidationError as exc:
        errors = [
            FieldError(("body", *err["loc"]), err["msg"], err["type"])
            for err in exc.errors(include_url=False)
        ]
        edges = []
    errors += self_loops(edges)
    if errors:
        kinds = {e.type for e in errors}
        code = "self_loop" if kinds == {"self_loop"} else "validation_error"
        raise Unprocessable(
            f"{len(errors)} invalid item(s) in the request.", code=code, errors=errors
        )
    return edges


def self_loops(
    edges: Sequence[EdgeIn], prefix: tuple[str | int, ...] = ("body",)
) -> list[FieldError]:
    return [
        FieldError((*prefix, i, "target"), "an edge cannot point to its own source", "self_loop")
        for i, e in enumerate(edges)
        if e.source == e.target
    ]


def fold(edges: Iterable[EdgeIn]) -> list[EdgeIn]:
    """One edge per (source, target), the last transformation winning; sorted, so that
    concurrent writers lock nodes in the same order and do not deadlock."""
    last: dict[tuple[str, str], EdgeIn] = {}
    for edge in edges:
        previous = last.get((edge.source, edge.target))
        if previous is not None and edge.transformation is None:
            edge = previous
        last[(edge.source, edge.target)] = edge
    return [last[key] for key in sorted(last)]


def endpoint_ids(edges: Iterable[EdgeIn]) -> list[str]:
    return sorted({e.source for e in edges} | {e.target for e in edges})


def edge_rows(edges: Iterable[EdgeIn]) -> list[dict[str, Any]]:
    """The rows `lineage.merge_edges` takes (built by hand: ten thousand `model_dump`
    calls cost more than the statement's parameters are worth)."""
    return [
        {"source": e.source, "target": e.target, "transformation": e.transformation} for e in edges
    ]


def column_key(asset: str, column: str) -> str:
    return asset + COLUMN_SEPARATOR + column


def column_row(
    source: str,
    source_column: str,
    target: str,
    target_column: str,
    transformation: str | None,
    at: str | None = None,
) -> dict[str, Any]:
    """One column mapping as `lineage.merge_columns` takes it; `at` is the event time of
    a writer whose events may arrive out of order (OpenLineage), else None."""
    return {
        "source": source,
        "target": target,
        "source_column": source_column,
        "target_column": target_column,
        "source_key": column_key(source, source_column),
        "target_key": column_key(target, target_column),
        "transformation": transformation,
        "at": at,
    }


def column_rows(edges: Iterable[EdgeIn]) -> list[dict[str, Any]]:
    """One row per (source column, target column) over every edge's `columns`, the last
    given transformation winning; sorted, so concurrent writers lock in one order."""
    last: dict[tuple[str, str], dict[str, Any]] = {}
    for edge in edges:
        for mapping in edge.columns or ():
            row = column_row(
                edge.source, mapping.source, edge.target, mapping.target, mapping.transformation
            )
            key = (row["source_key"], row["target_key"])
            previous = last.get(key)
            if previous is not None and mapping.transformation is None:
                row = previous
            last[key] = row
    return [last[key] for key in sorted(last)]


@dataclass(frozen=True)
class Reached:
    """A node a traversal reached, at its fewest-hop distance."""

    node: dict[str, Any]
    distance: int
    direction: Literal["root", "upstream", "downstream"]


def assemble(
    root: dict[str, Any],
    reached: Sequence[Reached],
    adjacent: Iterable[tuple[str, str, str | None, str]],
    limit: int,
) -> tuple[list[GraphNode], list[GraphEdge], bool]:
    """Nodes nearest first (root included, at most `limit`) and the edges among them that
    lie in the traversed direction. `adjacent` yields (source, target, transformation,
    direction) for every edge touching a reached node; those leaving the kept set drop."""
    best: dict[str, Reached] = {}
    for item in reached:
        node_id = item.node["id"]
        if node_id == root["id"]:
            continue
        current = best.get(node_id)
        if current is None or (item.distance, item.direction) < (
            current.distance,
            current.direction,
        ):
            best[node_id] = item
    ordered = sorted(best.values(), key=lambda r: (r.distance, r.node["id"]))
    truncated = len(ordered) > limit - 1
    kept = [Reached(root, 0, "root"), *ordered[: limit - 1]]
    sides = {r.node["id"]: r.direction for r in kept}
    nodes = [_graph_node(r) for r in kept]
    seen: set[tuple[str, str]] = set()
    edges = []
    for source, target, transformation, direction in adjacent:
        if (source, target) in seen:
            continue
        if _on_side(sides.get(source), direction) and _on_side(sides.get(target), direction):
            seen.add((source, target))
            edges.append(
                # Built from the graph's own values, so not validated again (a hot path).
                GraphEdge.model_construct(
                    source=source, target=target, transformation=transformation
                )
            )
    edges.sort(key=lambda e: (e.source, e.target))
    return nodes, edges, truncated


def _on_side(side: str | None, direction: str) -> bool:
    return side == "root" or side == direction


def _graph_node(item: Reached) -> GraphNode:
    node = item.node
    return GraphNode.model_construct(  # from the graph's own values: not validated again
        id=node["id"],
        name=node.get("name") or node["id"],
        type=node.get("type") or "unknown",
        platform=node.get("platform"),
        tags=list(node.get("tags") or []),
        placeholder=bool(node.get("placeholder", False)),
        distance=item.distance,
        direction=item.direction,
    )


@dataclass(frozen=True)
class ReachedColumn:
    """A column a column traversal reached, at its fewest-hop distance."""

    asset: str
    column: str
    distance: int


def assemble_columns(
    root: ColumnRef,
    reached: Sequence[ReachedColumn],
    adjacent: Iterable[tuple[str, str, str, str, str | None]],
    limit: int,
) -> tuple[list[ColumnNode], list[ColumnEdge], bool]:
    """Columns nearest first (root included, at most `limit`) and the column edges among
    them. `adjacent` yields (source asset, source column, target asset, target column,
    transformation) for every column edge leaving (downstream) or entering (upstream) a
    reached column; those with an end outside the kept set drop."""
    ordered = sorted(
        (r for r in reached if (r.asset, r.column) != (root.asset, root.column)),
        key=lambda r: (r.distance, r.asset, r.column),
    )
    truncated = len(ordered) > limit - 1
    kept = [ReachedColumn(root.asset, root.column, 0), *ordered[: limit - 1]]
    names = {(r.asset, r.column) for r in kept}
    nodes = [ColumnNode(asset=r.asset, column=r.column, distance=r.distance) for r in kept]
    edges: dict[tuple[str, str, str, str], ColumnEdge] = {}
    for s_asset, s_column, t_asset, t_column, transformation in adjacent:
        if (s_asset, s_column) in names and (t_asset, t_column) in names:
            edges[(s_asset, s_column, t_asset, t_column)] = ColumnEdge(
                source=ColumnRef(asset=s_asset, column=s_column),
                target=ColumnRef(asset=t_asset, column=t_column),
                transformation=transformation,
            )
    return nodes, [edges[key] for key in sorted(edges)], truncated
