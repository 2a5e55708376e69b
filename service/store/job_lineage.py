"""OpenLineage jobs own their edge sets: a job's newest COMPLETE run states its whole
lineage, so the edges and column mappings it asserted before and not in that run lose
the job's assertion (`edge_sets.retire`).

Runs may complete late or out of order. Each job keeps the order key (eventTime, then
state rank) of the run whose set stands (`lineage.claim_job_sets`): a newer COMPLETE
replaces the set; one with the same key joins it (a repeat, or two runs completing at
the same instant); an older one, arriving late, retires nothing and adds nothing the
newer run dropped: it only refreshes what the job still asserts (a transformation is
taken by event time). So any arrival order ends in the graph the time order makes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.domain.domains import DomainRules
from service.domain.lineage import remap_rows
from service.domain.openlineage import Plan
from service.graph import Tx
from service.store import edge_sets
from service.store import lineage as lineage_store
from service.store.edge_sets import Withdrawn
from service.store.lineage import Merged


@dataclass
class Written:
    """What one request did to the jobs' lineage: `ends` maps each dataset end
    (DATASET_MARK + key), and each former id named as an asset, to its asset; `edges`
    and `columns` count the rows merged."""

    ends: dict[str, str]
    placeholders: int
    merged: list[Merged] = field(default_factory=list)
    let_go: list[Withdrawn] = field(default_factory=list)
    edges: int = 0
    columns: int = 0

    @property
    def changed(self) -> bool:
        return any(m.changed for m in self.merged) or any(w.counts.changed for w in self.let_go)


async def write(tx: Tx, plan: Plan, now: str, actor: str, rules: DomainRules) -> Written:
    """The plan's datasets resolved (placeholders placed by `rules`) and each job's
    rows merged, its set replaced when this run is its newest."""
    ends, made = await lineage_store.dataset_ends(tx, plan.datasets, now, rules, plan.dataset_ids)
    aliased, made_by_id = await lineage_store.ensure_ids(tx, plan.asset_ids, now, rules)
    ends.update(aliased)
    written = Written(ends, made + made_by_id)
    standing = await _claim(tx, plan.complete_keys)
    for origin, key in plan.complete_keys.items():
        edges = _between_two(remap_rows(plan.edges.get(origin, []), ends))
        columns = _between_two(remap_rows(plan.columns.get(origin, []), ends))
        before = standing.get(origin)
        if before is not None and key < before:
            edges, columns = await _still_asserted(tx, origin, edges, columns)
        written.merged.append(await lineage_store.merge_rows(tx, edges, columns, origin, now))
        written.edges += len(edges)
        written.columns += len(columns)
        if before is None or key > before:
            written.let_go.append(await edge_sets.retire(tx, origin, edges, columns, actor, now))
    return written


def _between_two(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows whose ends are two assets: an id and a dataset may name one asset."""
    return [row for row in rows if row["source"] != row["target"]]


async def _claim(tx: Tx, keys: dict[str, str]) -> dict[str, str | None]:
    """Each job's standing order key before this request (None: none yet); the newer
    of it and this request's key stands from now on."""
    if not keys:
        return {}
    jobs = [{"origin": origin, "key": key} for origin, key in sorted(keys.items())]
    rows = await tx.run("lineage.claim_job_sets", jobs=jobs)
    return {row["origin"]: row["previous"] for row in rows}


async def _still_asserted(
    tx: Tx, origin: str, edges: list[dict[str, Any]], columns: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows among `edges` and `columns` that `origin` asserts now."""
    row = (
        await tx.run(
            "lineage.asserted_by",
            origin=origin,
            edges=[{"source": e["source"], "target": e["target"]} for e in edges],
            columns=[
                {"source_key": c["source_key"], "target_key": c["target_key"]} for c in columns
            ],
        )
    )[0]
    held = {(pair[0], pair[1]) for pair in row["edges"]}
    mapped = {(pair[0], pair[1]) for pair in row["columns"]}
    return (
        [e for e in edges if (e["source"], e["target"]) in held],
        [c for c in columns if (c["source_key"], c["target_key"]) in mapped],
    )
