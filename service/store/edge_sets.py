"""Edge sets owned by their writers, over `cypher/lineage/retire_edges.cypher`.

A writer that states its whole set (a bulk request with `replace=true`, an
OpenLineage job's COMPLETE run, a dbt project's upload) withdraws its assertion from
the edges and column mappings it asserted before and does not now. An edge leaves
the graph only when no origin asserts it any more; one statement does this for every
writer, so their rules cannot drift apart.

A writer's set is found through an index kept with its writes: `(:EdgeOrigin)
-[:ASSERTS_INTO]->` each asset its edges and column mappings point into, written by
`index` in the transaction that merges them, so a replace costs what the writer's set
holds, never what the graph does. Writers that never replace (`origins.owns_set`)
write no index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from service.domain import origins
from service.graph import Graph, Tx
from service.models.lineage import Edge, Retired
from service.store import column_tags, history
from service.store.outbox import Pending, emit_many

BACKFILL_BATCH = 1_000


@dataclass(frozen=True)
class Withdrawn:
    """What one writer let go: the counts its summary shows, every edge whose
    assertion it withdrew (sorted), those that left the graph, as they stood, and every
    column mapping changed, as (source column key, target column key)."""

    counts: Retired = field(default_factory=Retired)
    pairs: list[tuple[str, str]] = field(default_factory=list)
    removed: list[Edge] = field(default_factory=list)
    column_pairs: list[tuple[str, str]] = field(default_factory=list)


async def retire(
    tx: Tx,
    origin: str,
    edges: Iterable[dict[str, Any]],
    columns: Iterable[dict[str, Any]],
    actor: str,
    now: str,
) -> Withdrawn:
    """Withdraw `origin` from what it asserts outside `edges` and `columns` (rows as
    written: ends are asset ids). Each edge that leaves the graph is announced by
    `lineage.edge.deleted`, as if it had been deleted, with the edge as it stood; the
    history records every pair changed."""
    row = (
        await tx.run(
            "lineage.retire_edges",
            origin=origin,
            keep=[f"{e['source']}\n{e['target']}" for e in edges],
            keep_columns=[f"{c['source_key']}\n{c['target_key']}" for c in columns],
            now=now,
        )
    )[0]
    let_go = row["edges"]
    removed = [Edge(**item["edge"]) for item in let_go if item["removed"]]
    if removed:
        emit_many(tx, [Pending("lineage.edge.deleted", edge) for edge in removed], actor)
    withdrawn = Withdrawn(
        counts=Retired(
            edges=len(let_go),
            edges_removed=len(removed),
            column_mappings=int(row["columns_retired"]),
            column_mappings_removed=int(row["columns_removed"] or 0),
        ),
        pairs=[(item["source"], item["target"]) for item in let_go],
        removed=removed,
        column_pairs=[(pair[0], pair[1]) for pair in row["column_pairs"]],
    )
    await history.record_edges(tx, withdrawn.pairs, now)
    await history.record_columns(tx, withdrawn.column_pairs, now)
    held = column_tags.held_gone(row["held"])
    await column_tags.after_mappings(tx, withdrawn.column_pairs, actor, held)
    return withdrawn


async def index(
    tx: Tx, origin: str, edges: list[dict[str, Any]], columns: list[dict[str, Any]]
) -> None:
    """Before `origin`'s rows (ends are asset ids, which exist) are merged in `tx`: the
    assets they point into, indexed for `retire`. One statement per batch; none for a
    writer that never replaces its set, so `api` writes pay nothing."""
    targets = sorted({row["target"] for row in (*edges, *columns)})
    if targets and origins.owns_set(origin):
        await tx.run("lineage.index_origin_targets", origin=origin, targets=targets)


async def backfill(graph: Graph) -> int:
    """Index the sets written before `index` was (a page of target assets per
    transaction). Idempotent; start-up runs it before the service is ready, so no
    replace misses an edge from before. How many entries it made."""
    after: str | None = ""
    made = 0
    while after is not None:
        row = (
            await graph.write(
                "lineage.backfill_origin_targets",
                after=after,
                batch=BACKFILL_BATCH,
                unowned=origins.UNOWNED,
                unowned_prefixes=list(origins.UNOWNED_PREFIXES),
            )
        )[0]
        made += int(row["indexed"])
        after = row["last"]
    return made


def total(withdrawn: Iterable[Withdrawn]) -> Retired:
    """Counts summed over writers (one request may complete several jobs)."""
    parts = [w.counts for w in withdrawn]
    return Retired(
        edges=sum(p.edges for p in parts),
        edges_removed=sum(p.edges_removed for p in parts),
        column_mappings=sum(p.column_mappings for p in parts),
        column_mappings_removed=sum(p.column_mappings_removed for p in parts),
    )
