"""SQL lineage writes: the statements' datasets resolved to the assets holding them
and their table and column flows merged for the writer `sql:<source>`, in one
transaction. A request that changed the graph announces one `lineage.bulk.ingested`."""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from service import clock
from service.domain.sql_plan import SqlPlan
from service.graph import Graph, Reader, Tx
from service.models.openlineage import Counts
from service.models.sql import SqlFailure, SqlResult, SqlStatementCounts
from service.store import asset_domains, summary_places
from service.store import lineage as lineage_store
from service.store.outbox import emit


async def stored_columns(graph: Graph, keys: Sequence[str]) -> dict[str, list[str]]:
    """Column names of the assets holding these dataset keys (those that have columns)."""
    if not keys:
        return {}

    async def work(reader: Reader) -> dict[str, list[str]]:
        rows = await reader.run("identity.dataset_columns", keys=sorted(set(keys)))
        return {
            key: [c["name"] for c in orjson.loads(columns_json)]
            for key, columns_json in rows[0]["columns"]
        }

    return await graph.read_session(work)


async def ingest(
    graph: Graph,
    plan: SqlPlan,
    received: int,
    query_ids: Sequence[str | None],
    actor: str,
    timeout_s: float | None = None,
) -> SqlResult:
    async def work(tx: Tx) -> SqlResult:
        now = clock.now_iso()
        rules = await asset_domains.current(tx)
        ends, made, merged = await lineage_store.merge_by_dataset(
            tx, plan.datasets, {plan.origin: plan.edges}, {plan.origin: plan.columns}, now, rules
        )
        created = sum(m.created for m in merged)
        columns_created = sum(m.columns_created for m in merged)
        result = SqlResult(
            origin=plan.origin,
            statements=SqlStatementCounts(
                received=received,
                with_lineage=plan.with_lineage,
                without_lineage=plan.without_lineage,
                failed=len(plan.failures),
            ),
            edges=Counts(created=created, existing=len(plan.edges) - created),
            column_mappings=Counts(
                created=columns_created, existing=len(plan.columns) - columns_created
            ),
            assets_created=made,
            failures=[
                SqlFailure(index=i, message=message, query_id=query_ids[i])
                for i, message in plan.failures
            ],
            warnings=plan.warnings,
        )
        if made or any(m.changed for m in merged):
            touched = summary_places.row_ends(plan.edges, ends)
            hides = await summary_places.hides_in(tx, [*ends.values(), *touched], rules)
            emit(tx, "lineage.bulk.ingested", result, actor, hides_in=hides)
        return result

    return await graph.write_tx(work, timeout_s=timeout_s)
