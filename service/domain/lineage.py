"""Pure lineage logic: validating and folding edge batches, assembling graph answers,
for assets and for their columns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from pydantic import TypeAdapter, ValidationError

from service.domain import column_kinds
from service.domain.datasets import DatasetNameError, DatasetRef, normalise
from service.errors import FieldError, Unprocessable
from service.ids import is_plain_id
from service.models.common import field_loc
from service.models.datasets import DatasetIn
from service.models.lineage import (
    MAX_TRANSFORMATION,
    ColumnEdge,
    ColumnNode,
    ColumnRef,
    EdgeIn,
)

_EDGES = TypeAdapter(list[EdgeIn])
# Column node keys are `asset id + "\n" + column name`: an asset id holds no whitespace,
# so the first newline splits a key unambiguously, and a key prefix finds an asset's
# columns through the unique index.
COLUMN_SEPARATOR = "\n"
# A dataset end stands in a batch as this mark and its key until the store resolves it
# to the asset holding it: no asset id holds a control character, so none collides.
DATASET_MARK = "\x00"


def end_id(end: str | DatasetIn) -> str:
    """An edge end as a batch keys it: the id, or the mark and the dataset's key."""
    if isinstance(end, str):
        return end
    return DATASET_MARK + normalise(end.namespace, end.name).key


def is_dataset_end(end_key: str) -> bool:
    return end_key.startswith(DATASET_MARK)


def _dataset_errors(edges: Sequence[EdgeIn]) -> list[FieldError]:
    errors = []
    for i, edge in enumerate(edges):
        for side in ("source", "target"):
            end = getattr(edge, side)
            if isinstance(end, DatasetIn):
                try:
                    normalise(end.namespace, end.name)
                except DatasetNameError as exc:
                    errors.append(
                        FieldError(("body", i, side, exc.field), str(exc), "invalid_dataset")
                    )
    return errors


def validate_edges(items: Any, max_items: int, *, allow_empty: bool = False) -> EdgeBatch:
    """Every item checked before anything is written; 422 lists each bad item by index.
    `allow_empty`: an empty array is a batch (a writer's set that is now empty)."""
    if not isinstance(items, list):
        raise Unprocessable(
            "The body must be a JSON array of edges.",
            errors=[FieldError(("body",), "must be an array", "list_type")],
        )
    if not items and not allow_empty:
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
    plain = _plain_batch(items)
    if plain is not None:
        return plain
    errors: list[FieldError] = []
    try:
        edges = _EDGES.validate_python(items, strict=True)
    except ValidationError as exc:
        errors = [
            FieldError(field_loc(("body", *err["loc"])), err["msg"], err["type"])
            for err in exc.errors(include_url=False)
        ]
        edges = []
    errors += _dataset_errors(edges)
    if not errors:
        errors += self_loops(edges)
    if errors:
        kinds = {e.type for e in errors}
        code = "self_loop" if kinds == {"self_loop"} else "validation_error"
        raise Unprocessable(
            f"{len(errors)} invalid item(s) in the request.", code=code, errors=errors
        )
    return EdgeBatch.of(edges)


@dataclass(frozen=True, slots=True)
class EdgeBatch:
    """Validated edges as they are written: one row per (source, target), sorted, so
    that concurrent writers lock nodes in the same order and do not deadlock."""

    received: int
    rows: list[dict[str, Any]]  # what `lineage.merge_edges` takes
    ids: list[str]  # every endpoint, sorted (dataset ends as DATASET_MARK + key)
    columns: list[dict[str, Any]]  # what `lineage.merge_columns` takes
    with_columns: bool  # some edge named `columns` (the answer then counts mappings)
    edges: tuple[EdgeIn, ...] | None = field(default=None, compare=False)  # None: plain path
    datasets: dict[str, DatasetRef] = field(default_factory=dict)  # dataset ends by key

    @classmethod
    def of(cls, edges: Sequence[EdgeIn], received: int | None = None) -> EdgeBatch:
        folded = fold(edges)
        datasets = {
            DATASET_MARK + ref.key: ref
            for e in edges
            for end in (e.source, e.target)
            if isinstance(end, DatasetIn)
            for ref in (normalise(end.namespace, end.name),)
        }
        return cls(
            received=len(edges) if received is None else received,
            rows=edge_rows(folded),
            ids=endpoint_ids(folded),
            columns=column_rows(edges),
            with_columns=any(e.columns is not None for e in edges),
            edges=tuple(edges),
            datasets=datasets,
        )

    @property
    def asset_ids(self) -> list[str]:
        """The ends that are ids (not datasets)."""
        return [i for i in self.ids if not is_dataset_end(i)]

    def resolved(self, ends: Mapping[str, str]) -> EdgeBatch:
        """The batch with each end in `ends` (a dataset end, or an alias) replaced by the id
        of the asset it names; pairs that become one are folded again. 422 `self_loop`
        when both ends of an edge name one asset."""
        if not ends:
            return self
        if self.edges is None:
            return _plain_resolved(self, ends)
        edges = [
            e.model_copy(
                update={
                    "source": ends.get(end_id(e.source), end_id(e.source)),
                    "target": ends.get(end_id(e.target), end_id(e.target)),
                }
            )
            for e in self.edges
        ]
        _refuse_loops(edges)
        return EdgeBatch.of(edges, self.received)


def _refuse_loops(edges: Sequence[EdgeIn]) -> None:
    loops = self_loops(edges)
    if loops:
        raise Unprocessable(
            "An edge's two ends name one asset (through a dataset or a former id).",
            code="self_loop",
            errors=loops,
        )


def _plain_resolved(batch: EdgeBatch, ends: Mapping[str, str]) -> EdgeBatch:
    last: dict[tuple[str, str], str | None] = {}
    loops = []
    for row in batch.rows:
        source = ends.get(row["source"], row["source"])
        target = ends.get(row["target"], row["target"])
        if source == target:
            loops.append(
                FieldError(("body",), f"{row['source']!r} -> {row['target']!r}", "self_loop")
            )
        elif row["transformation"] is not None or (source, target) not in last:
            last[(source, target)] = row["transformation"]
    if loops:
        raise Unprocessable(
            "An edge's two ends name one asset (through a former id).",
            code="self_loop",
            errors=loops,
        )
    keys = sorted(last)
    return EdgeBatch(
        received=batch.received,
        rows=[{"source": s, "target": t, "transformation": last[(s, t)]} for s, t in keys],
        ids=sorted({s for s, _ in keys}.union(t for _, t in keys)),
        columns=[],
        with_columns=False,
    )


_PLAIN_FIELDS = frozenset(("source", "target", "transformation"))


def _plain_batch(items: list[Any]) -> EdgeBatch | None:
    """The common request checked and folded in one pass over the parsed JSON, with no
    model per edge (that was most of a 10,000-edge request's own time): every item an
    object of source, target and an optional transformation, ids of printable ASCII.
    None as soon as one item is anything else, valid or not; `EdgeIn` then decides,
    and names every error. A unit test holds both paths to the same answers."""
    last: dict[tuple[str, str], str | None] = {}
    for item in items:
        if type(item) is not dict or not item.keys() <= _PLAIN_FIELDS:
            return None
        source, target = item.get("source"), item.get("target")
        transformation = item.get("transformation")
        if type(source) is not str or type(target) is not str or source == target:
            return None
        if not (is_plain_id(source) and is_plain_id(target)):
            return None
        if transformation is None:
            if (source, target) in last:
                continue  # an earlier transformation stands
        elif type(transformation) is not str or len(transformation) > MAX_TRANSFORMATION:
            return None
        last[(source, target)] = transformation
    keys = sorted(last)
    return EdgeBatch(
        received=len(items),
        rows=[{"source": s, "target": t, "transformation": last[(s, t)]} for s, t in keys],
        ids=sorted({s for s, _ in keys}.union(t for _, t in keys)),
        columns=[],
        with_columns=False,
    )


def self_loops(
    edges: Sequence[EdgeIn], prefix: tuple[str | int, ...] = ("body",)
) -> list[FieldError]:
    return [
        FieldError((*prefix, i, "target"), "an edge cannot point to its own source", "self_loop")
        for i, e in enumerate(edges)
        if end_id(e.source) == end_id(e.target)
    ]


def fold(edges: Iterable[EdgeIn]) -> list[EdgeIn]:
    """One edge per (source, target), the last transformation winning; sorted, so that
    concurrent writers lock nodes in the same order and do not deadlock."""
    last: dict[tuple[str, str], EdgeIn] = {}
    for edge in edges:
        key = (end_id(edge.source), end_id(edge.target))
        previous = last.get(key)
        if previous is not None and edge.transformation is None:
            edge = previous
        last[key] = edge
    return [last[key] for key in sorted(last)]


def endpoint_ids(edges: Iterable[EdgeIn]) -> list[str]:
    return sorted({end_id(e.source) for e in edges} | {end_id(e.target) for e in edges})


def edge_rows(edges: Iterable[EdgeIn]) -> list[dict[str, Any]]:
    """The rows `lineage.merge_edges` takes (built by hand: ten thousand `model_dump`
    calls cost more than the statement's parameters are worth)."""
    return [
        {"source": end_id(e.source), "target": end_id(e.target), "transformation": e.transformation}
        for e in edges
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
    kind: str | None = None,
) -> dict[str, Any]:
    """One column mapping as `lineage.merge_columns` takes it; `at` is the event time of
    a writer whose events may arrive out of order (OpenLineage), else None. `kind`
    (`column_kinds`), when the writer does not know it, is read from the transformation."""
    return {
        "source": source,
        "target": target,
        "source_column": source_column,
        "target_column": target_column,
        "source_key": column_key(source, source_column),
        "target_key": column_key(target, target_column),
        "transformation": transformation,
        "at": at,
        "kind": kind if kind is not None else column_kinds.of_text(transformation),
    }


def remap_rows(rows: Iterable[dict[str, Any]], ends: Mapping[str, str]) -> list[dict[str, Any]]:
    """Edge or column rows with their ends replaced through `ends` (column keys too).
    The caller's ends are distinct assets, so no pair folds into another."""
    out = []
    for row in rows:
        source, target = (
            ends.get(row["source"], row["source"]),
            ends.get(row["target"], row["target"]),
        )
        moved = {**row, "source": source, "target": target}
        if "source_key" in row:
            moved["source_key"] = column_key(source, row["source_column"])
            moved["target_key"] = column_key(target, row["target_column"])
        out.append(moved)
    return out


def column_rows(edges: Iterable[EdgeIn]) -> list[dict[str, Any]]:
    """One row per (source column, target column) over every edge's `columns`, the last
    given transformation winning; sorted, so concurrent writers lock in one order."""
    last: dict[tuple[str, str], dict[str, Any]] = {}
    for edge in edges:
        for mapping in edge.columns or ():
            row = column_row(
                end_id(edge.source),
                mapping.source,
                end_id(edge.target),
                mapping.target,
                mapping.transformation,
                kind=mapping.kind,
            )
            key = (row["source_key"], row["target_key"])
            previous = last.get(key)
            if previous is not None and mapping.transformation is None:
                row = previous
            last[key] = row
    return [last[key] for key in sorted(last)]


Node = dict[str, Any]
"""A node as the traversal statement returns it, already in the answer's shape: id,
name, type, platform, tags, placeholder, distance and direction."""


@dataclass(frozen=True, slots=True)
class LineageView:
    """A traversal's answer in the shape of the `LineageGraph` document, held as plain
    dicts: a 2,000-node answer is written by orjson as it came from Neo4j, with no
    model object per node or edge (that was half the time of a large traversal)."""

    root: str
    direction: str
    depth: int
    nodes: list[Node]
    edges: list[dict[str, Any]]
    truncated: bool
    next_cursor: str | None = None
    remaining: dict[str, int] = field(default_factory=dict)
    hidden: dict[str, int] = field(default_factory=dict)
    capped: list[dict[str, Any]] = field(default_factory=list)
    redacted: int = 0  # stand-ins among `nodes` (`service.domain.redaction`)

    def document(self) -> dict[str, Any]:
        """The JSON document as a dict (for templates; the API dumps the view itself)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


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
