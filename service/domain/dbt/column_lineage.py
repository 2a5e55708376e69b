"""A manifest's column lineage: every node with compiled SQL, parents before children.

Parents go first so that a model's derived output columns (complete, unlike the
documented ones, which often list only a few) are known when a child expands a
`SELECT *` over it; a parent without SQL (a seed, a source) has no full list, so a
`*` over it is traced by column name instead. Nodes without compiled SQL (a manifest from `dbt parse`,
Python models) yield none; what cannot be traced is a warning, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from service.domain.dbt.access import Warnings
from service.domain.dbt.columns import Relation, describe, dialect_for, node_columns, relation_parts
from service.domain.dbt.contents import ColumnLineage, DbtAsset, DbtColumnEdge


@dataclass(frozen=True)
class SqlNode:
    """A node whose compiled SQL is analysed, and the assets it depends on."""

    uid: str
    sql: str
    parents: tuple[str, ...]


def read_column_lineage(
    assets: Sequence[DbtAsset],
    nodes: Sequence[SqlNode],
    adapter: str | None,
    without_sql: int = 0,
) -> ColumnLineage:
    dialect = dialect_for(adapter)
    relations = {a.id: _relation(a) for a in assets}
    documented = {a.id: tuple(c.name for c in a.columns) for a in assets}
    derived: dict[str, tuple[str, ...]] = {}
    warnings = Warnings()
    if without_sql:
        warnings.add(
            f"{without_sql} model(s) have no compiled SQL (Python models, or a manifest "
            "written by `dbt parse`): no column lineage for them"
        )
    edges: list[DbtColumnEdge] = []
    analysed = skipped = unresolved = 0
    for node in _parents_first(nodes):
        parents = [
            replace(relations[p], columns=derived.get(p, ()), names=documented.get(p, ()))
            for p in node.parents
            if p in relations
        ]
        if not parents:
            continue
        result = node_columns(node.uid, node.sql, dialect, parents, documented.get(node.uid, ()))
        if result.columns is not None:
            derived[node.uid] = result.columns
        edges += result.edges
        analysed += 1 if result.edges else 0
        skipped += 1 if result.problem else 0
        unresolved += len(result.unresolved)
        message = describe(node.uid, result)
        if message:
            warnings.add(message)
    return ColumnLineage(
        edges=tuple(edges),
        nodes=analysed,
        skipped=skipped,
        unresolved_columns=unresolved,
        warnings=warnings.result(),
    )


def _relation(asset: DbtAsset) -> Relation:
    props = asset.properties
    fallback = [props.get("database"), props.get("schema"), props.get("alias")]
    name = props.get("relation_name")
    return Relation(
        uid=asset.id,
        parts=relation_parts(
            name if isinstance(name, str) else None,
            [p if isinstance(p, str) else None for p in fallback],
        ),
    )


def _parents_first(nodes: Sequence[SqlNode]) -> list[SqlNode]:
    """Kahn's order over the dependencies among `nodes`; linear in nodes and edges. A
    cycle (dbt refuses them, a hand-edited manifest might not) keeps document order."""
    by_id: Mapping[str, SqlNode] = {n.uid: n for n in nodes}
    waiting = {n.uid: sum(1 for p in set(n.parents) if p in by_id) for n in nodes}
    children: dict[str, list[str]] = {}
    for node in nodes:
        for parent in set(node.parents):
            if parent in by_id:
                children.setdefault(parent, []).append(node.uid)
    ready = [n.uid for n in nodes if waiting[n.uid] == 0]
    order: list[SqlNode] = []
    while ready:
        uid = ready.pop()
        order.append(by_id[uid])
        for child in children.get(uid, ()):
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    placed = {n.uid for n in order}
    return order + [n for n in nodes if n.uid not in placed]
