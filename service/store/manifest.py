"""dbt manifest ingestion over `cypher/manifest/` and the lineage upsert.

The manifest is read and validated whole before anything is written (bad input
writes nothing). It is then written in batches, each its own transaction of at
most BATCH_ROWS rows and about BATCH_BYTES of text: a 10,000-model manifest
carries hundreds of MB of SQL, more than one Neo4j transaction should hold. The
prune and the summary event come last, in one transaction. Every write is an
idempotent upsert, so an upload cut short is completed by the next one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from service import clock
from service.domain.dbt_manifest import ManifestContents
from service.domain.manifest_plan import plan_assets, plan_column_edges, plan_rules
from service.graph import Graph, Tx
from service.models.manifest import (
    AssetCounts,
    ColumnLineageSummary,
    EdgeCounts,
    ManifestSummary,
    RuleCounts,
)
from service.store.outbox import emit

BATCH_ROWS = 5_000
# Each batch is packed whole by the driver before it is sent: 4 MiB of SQL keeps that
# buffer small beside the manifest, at a few more (cheap) transactions.
BATCH_BYTES = 4 * 1024 * 1024
INGEST_TIMEOUT_S = 600.0
T = TypeVar("T")


def batches(items: Sequence[T], size: Callable[[T], int] = lambda _: 0) -> Iterator[list[T]]:
    """Consecutive runs of at most BATCH_ROWS items and about BATCH_BYTES by `size`."""
    batch: list[T] = []
    weight = 0
    for item in items:
        item_size = size(item)
        if batch and (len(batch) >= BATCH_ROWS or weight + item_size > BATCH_BYTES):
            yield batch
            batch, weight = [], 0
        batch.append(item)
        weight += item_size
    if batch:
        yield batch


def edge_size(edge: dict[str, Any]) -> int:
    return len(edge.get("transformation") or "") + 200


def column_size(row: dict[str, Any]) -> int:
    return len(row.get("transformation") or "") + 300


def asset_size(row: dict[str, Any]) -> int:
    return (
        len(row["props"].get("columns_json") or "")
        + len(row["props"].get("description") or "")
        + 500
    )


async def _write(graph: Graph, query: str, **params: Any) -> list[Any]:
    return await graph.write_tx(lambda tx: tx.run(query, **params), timeout_s=INGEST_TIMEOUT_S)


async def _existing(
    graph: Graph, query: str, key: str, ids: list[str]
) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for chunk in batches(ids):
        for row in await graph.read(query, ids=chunk):
            found[row[key]["id"]] = row[key]
    return found


def manifest_edges(contents: ManifestContents, present: set[str]) -> list[dict[str, Any]]:
    """Edges whose two ends are assets, sorted so concurrent writers lock in one order."""
    return sorted(
        (
            {"source": e.source, "target": e.target, "transformation": e.transformation}
            for e in contents.edges
            if e.source in present and e.target in present
        ),
        key=lambda e: (e["source"], e["target"]),
    )


async def ingest(
    graph: Graph, contents: ManifestContents, prune: bool, actor: str
) -> ManifestSummary:
    origin = f"dbt:{contents.project}"
    now = clock.now_iso()
    existing = await _existing(
        graph, "manifest.existing_assets", "asset", [a.id for a in contents.assets]
    )
    assets = plan_assets(contents.assets, existing, now)
    for rows in batches(assets.rows, asset_size):
        await _write(graph, "manifest.write_assets", rows=rows)

    present = assets.written_ids | set(existing)
    edges = manifest_edges(contents, present)
    created = 0
    for chunk in batches(edges, edge_size):
        result = await _write(graph, "lineage.merge_edges", edges=chunk, origin=origin, now=now)
        created += int(result[0]["created"] or 0)

    columns = plan_column_edges(contents, {(e["source"], e["target"]) for e in edges})
    columns_created = 0
    for chunk in batches(columns, column_size):
        result = await _write(graph, "lineage.merge_columns", rows=chunk, origin=origin, now=now)
        columns_created += int(result[0]["created"] or 0)

    existing_rules = await _existing(
        graph, "manifest.existing_rules", "rule", [r.id for r in contents.rules]
    )
    rules = plan_rules(contents.rules, existing_rules, present, origin, now)
    for rows in batches(rules.rows):
        await _write(graph, "manifest.write_rules", rows=rows)

    async def finish(tx: Tx) -> ManifestSummary:
        removed = rules_removed = columns_removed = 0
        if prune:
            keep = [f"{e['source']}\n{e['target']}" for e in edges]
            removed = int(
                (await tx.run("manifest.prune_edges", origin=origin, keep=keep))[0]["removed"] or 0
            )
            kept_columns = [f"{c['source_key']}\n{c['target_key']}" for c in columns]
            pruned_columns = await tx.run(
                "manifest.prune_columns", origin=origin, keep=kept_columns
            )
            columns_removed = int(pruned_columns[0]["removed"] or 0)
            kept_rules = sorted(rules.written_ids)
            pruned = await tx.run("manifest.prune_rules", origin=origin, keep=kept_rules)
            rules_removed = int(pruned[0]["removed"] or 0)
        summary = ManifestSummary(
            project=contents.project,
            dbt_version=contents.dbt_version,
            dbt_schema_version=contents.schema_version,
            assets=AssetCounts(created=assets.created, updated=assets.updated),
            edges=EdgeCounts(created=created, existing=len(edges) - created, removed=removed),
            quality_rules=RuleCounts(
                created=rules.created, updated=rules.updated, removed=rules_removed
            ),
            skipped=contents.skipped,
            warnings=[*contents.warnings, *assets.warnings, *rules.warnings],
            column_lineage=ColumnLineageSummary(
                nodes=contents.column_lineage.nodes,
                edges=EdgeCounts(
                    created=columns_created,
                    existing=len(columns) - columns_created,
                    removed=columns_removed,
                ),
                skipped=contents.column_lineage.skipped,
                unresolved_columns=contents.column_lineage.unresolved_columns,
                warnings=list(contents.column_lineage.warnings),
            ),
        )
        changed = (
            assets.created
            + assets.updated
            + created
            + removed
            + rules.created
            + rules.updated
            + rules_removed
            + columns_created
            + columns_removed
        )
        if changed:
            emit(tx, "lineage.manifest.ingested", summary, actor)
        return summary

    return await graph.write_tx(finish, timeout_s=INGEST_TIMEOUT_S)
