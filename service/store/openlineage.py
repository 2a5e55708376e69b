"""OpenLineage ingestion over `cypher/lineage/`: one transaction per request.

Run states, datasets resolved to the assets holding them (placeholders made for
datasets nobody holds), edges and column mappings (one lineage merge per
job, the job being the edge's origin; a job's newest COMPLETE run replaces its set:
see `job_lineage`) and columns from schema facets are written together or not at all.
A request that changed the graph announces one `lineage.bulk.ingested` event with its
summary, plus `asset.updated` for each asset whose columns a schema facet changed and
`lineage.edge.deleted` for each edge that left the graph; recording run states alone
announces nothing.
"""

from __future__ import annotations

from service import clock
from service.domain.assets import from_node
from service.domain.openlineage import Plan
from service.graph import Graph, Tx
from service.models.openlineage import AssetChanges, Counts, OpenLineageResult
from service.store import (
    asset_domains,
    asset_versions,
    column_tags,
    edge_sets,
    job_lineage,
    summary_places,
)
from service.store.outbox import emit


async def ingest(
    graph: Graph, plan: Plan, actor: str, timeout_s: float | None = None
) -> OpenLineageResult:
    """`timeout_s`: the ingestion timeout, in place of the query timeout."""

    async def work(tx: Tx) -> OpenLineageResult:
        now = clock.now_iso()
        if plan.runs:
            await tx.run("lineage.record_runs", runs=plan.runs)
        rules = await asset_domains.current(tx)
        written = await job_lineage.write(tx, plan, now, actor, rules)
        ends, created_assets = written.ends, written.placeholders
        updated_assets = []
        if plan.schemas:
            schemas = [{**row, "id": ends.get(row["id"], row["id"])} for row in plan.schemas]
            rows = await tx.run("lineage.apply_schemas", rows=schemas, now=now)
            updated_assets = [from_node(node) for node in rows[0]["updated"]]
        for asset in updated_assets:
            await column_tags.sync_declared(tx, asset.id, asset.columns, actor)
            emit(tx, "asset.updated", asset, actor)
        asset_versions.record(tx, [a.id for a in updated_assets], now, actor)
        result = _result(plan, written, len(updated_assets))
        if created_assets or updated_assets or written.changed:
            touched = [*ends.values(), *(a.id for a in updated_assets)]
            touched += summary_places.row_ends(
                (row for rows in plan.edges.values() for row in rows), ends
            )
            hides = await summary_places.hides_in(tx, touched, rules)
            emit(tx, "lineage.bulk.ingested", result, actor, hides_in=hides)
        return result

    return await graph.write_tx(work, timeout_s=timeout_s)


def _result(plan: Plan, written: job_lineage.Written, assets_updated: int) -> OpenLineageResult:
    edges_created = sum(m.created for m in written.merged)
    columns_created = sum(m.columns_created for m in written.merged)
    return OpenLineageResult(
        received=plan.received,
        complete=plan.complete,
        runs=len(plan.runs),
        edges=Counts(created=edges_created, existing=written.edges - edges_created),
        column_mappings=Counts(created=columns_created, existing=written.columns - columns_created),
        assets=AssetChanges(created=written.placeholders, updated=assets_updated),
        warnings=plan.warnings,
        retired=edge_sets.total(written.let_go),
    )
