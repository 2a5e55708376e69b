"""A lineage neighbourhood as a file: what an export holds and the file's name. Pure:
the store reads a traversal and its details, `assemble` makes a `Neighbourhood`, a
format renders it (`lineage_export_text`, `lineage_export_openlineage`).

The formats and their media types are listed in `lineage_export_formats`. Every
format is written from one `Neighbourhood`, so the API, the CLI and the
dashboard export the same graph the traversal answers, with the column detail an
export adds (columns, column mappings, datasets).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import orjson

from service.domain.lineage import LineageView, Node


@dataclass(frozen=True, slots=True)
class ColumnMapping:
    source: str  # a column of the edge's source asset
    target: str  # a column of the edge's target asset
    transformation: str | None


@dataclass(frozen=True, slots=True)
class ExportEdge:
    source: str
    target: str
    transformation: str | None
    columns: tuple[ColumnMapping, ...] = ()


@dataclass(frozen=True, slots=True)
class ExportColumn:
    name: str
    type: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class ExportNode:
    id: str
    name: str
    type: str
    platform: str | None
    distance: int
    direction: str  # root, upstream or downstream
    dataset: tuple[str, str] | None = None  # (namespace, name) it holds
    columns: tuple[ExportColumn, ...] = ()


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    """A traversal's nodes and edges (its order kept: nearest first, edges by ends),
    with the columns, datasets and column mappings the export writes beside them."""

    root: str
    direction: str
    depth: int
    truncated: bool
    nodes: tuple[ExportNode, ...]
    edges: tuple[ExportEdge, ...]


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def filename(root: str, extension: str) -> str:
    """`lineage-<root>.<ext>` with every run of characters a file name may not safely
    hold (`/`, `:`, quotes, non-ASCII) as one `_`, at most 100 characters of the id."""
    stem = _UNSAFE.sub("_", root).strip("._")[:100] or "asset"
    return f"lineage-{stem}.{extension}"


def content_disposition(root: str, extension: str) -> str:
    """An attachment named after the root: an ASCII name every client reads, and the
    exact id in `filename*` (RFC 6266) for those that read it."""
    exact = f"lineage-{root}.{extension}".replace("/", "_")
    return (
        f'attachment; filename="{filename(root, extension)}"; '
        f"filename*=UTF-8''{quote(exact, safe='')}"
    )


def assemble(
    view: LineageView,
    assets: Iterable[Mapping[str, Any]],
    mappings: Iterable[Mapping[str, Any]],
) -> Neighbourhood:
    """The traversal's answer with, from `lineage.export_details`, each asset's dataset
    and declared columns and each edge's column mappings (sorted by source, then
    target column). Details of assets or edges the view does not hold are ignored."""
    held = {str(a["id"]): a for a in assets}
    by_edge: dict[tuple[str, str], list[ColumnMapping]] = {}
    for m in mappings:
        mapping = ColumnMapping(m["source_column"], m["target_column"], m["transformation"])
        by_edge.setdefault((m["source"], m["target"]), []).append(mapping)
    nodes = tuple(_node(n, held.get(n["id"])) for n in view.nodes)
    edges = tuple(
        ExportEdge(
            e["source"],
            e["target"],
            e.get("transformation"),
            tuple(sorted(by_edge.get((e["source"], e["target"]), ()), key=_by_columns)),
        )
        for e in view.edges
    )
    return Neighbourhood(view.root, view.direction, view.depth, view.truncated, nodes, edges)


def _by_columns(mapping: ColumnMapping) -> tuple[str, str]:
    return mapping.source, mapping.target


def _node(node: Node, details: Mapping[str, Any] | None) -> ExportNode:
    dataset = None
    columns: tuple[ExportColumn, ...] = ()
    if details is not None:
        if details.get("namespace") and details.get("name"):
            dataset = (str(details["namespace"]), str(details["name"]))
        declared = orjson.loads(details["columns_json"]) if details.get("columns_json") else []
        columns = tuple(
            ExportColumn(c["name"], c.get("type"), c.get("description")) for c in declared
        )
    return ExportNode(
        id=node["id"],
        name=node["name"],
        type=node["type"],
        platform=node.get("platform"),
        distance=int(node["distance"]),
        direction=node["direction"],
        dataset=dataset,
        columns=columns,
    )
