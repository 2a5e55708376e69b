"""OpenLineage ingestion over `cypher/lineage/`: one transaction per request.

Run states, datasets resolved to the assets holding them (placeholders made for
datasets nobody holds), edges and column mappings (one lineage merge per
job, the job being the edge's origin) and columns from schema facets are written
together or not at all. A request that changed the graph announces one
`lineage.bulk.ingested` event with its summary, plus `asset.updated` for each asset
whose columns a schema facet changed; recording run states alone announces nothing.
"""

from __future__ import annotations

from service import clock
from service.domain.assets import from_node
from service.domain.openlineage import Plan
from service.graph import Graph, Tx
from service.models.openlineage import AssetChanges, Counts, OpenLineageResult
from service.store import lineage as lineage_store
from service.store.lineage import Merged
from service.store.outbox import emit


async def ingest(
    graph: Graph, plan: Plan, actor: str, timeout_s: float | None = None
) -> OpenLineageResult:
    """`timeout_s`: the ingestion timeout, in place of the query timeout."""

    async def work(tx: Tx) -> OpenLineageResult:
        now = clock.now_iso()
        if plan.runs:
            await tx.run("lineage.record_runs", runs=plan.runs)
        ends, created_assets, merged = await lineage_store.merge_by_dataset(
            tx, plan.datasets, plan.edges, plan.columns, now
        )
        updated_assets = []
        if plan.schemas:
            schemas = [{**row, "id": ends[row["id"]]} for row in plan.schemas]
            rows = await tx.run("lineage.apply_schemas", rows=schemas, now=now)
            updated_assets = [from_node(node) for node in rows[0]["updated"]]
        for asset in updated_assets:
            emit(tx, "asset.updated", asset, actor)
        result = _result(plan, merged, created_assets, len(updated_assets))
        if created_assets or updated_assets or any(m.changed for m in merged):
            emit(tx, "lineage.bulk.ingested", result, actor)
        return result

    return await graph.write_tx(work, timeout_s=timeout_s)


def _result(
    plan: Plan, merged: list[Merged], assets_created: int, assets_updated: int
) -> OpenLineageResult:
    edges = sum(len(rows) for rows in plan.edges.values())
    columns = sum(len(rows) for rows in plan.columns.values())
    edges_created = sum(m.created for m in merged)
    columns_created = sum(m.columns_created for m in merged)
    return OpenLineageResult(
        received=plan.received,
        complete=plan.complete,
        runs=len(plan.runs),
        edges=Counts(created=edges_created, existing=edges - edges_created),
        column_mappings=Counts(created=columns_created, existing=columns - columns_created),
        assets=AssetChanges(created=assets_created, updated=assets_updated),
        warnings=plan.warnings,
    )
