"""dbt manifest ingestion over `cypher/manifest/` and the lineage upsert.

One transaction for the whole manifest, written in batches of UNWIND rows: a
manifest is ingested entirely or not at all, and a retry converges.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from service import clock
from service.domain.dbt_manifest import ManifestContents
from service.domain.manifest_plan import plan_assets, plan_rules
from service.events.outbox import emit
from service.graph import Graph, Tx
from service.models.manifest import AssetCounts, EdgeCounts, ManifestSummary, RuleCounts

BATCH = 5_000
INGEST_TIMEOUT_S = 600.0
T = TypeVar("T")


def _batches(items: Sequence[T]) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


async def _existing(tx: Tx, query: str, key: str, ids: list[str]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for chunk in _batches(ids):
        for row in await tx.run(query, ids=list(chunk)):
            found[row[key]["id"]] = row[key]
    return found


async def ingest(
    graph: Graph, contents: ManifestContents, prune: bool, actor: str
) -> ManifestSummary:
    origin = f"dbt:{contents.project}"

    async def work(tx: Tx) -> ManifestSummary:
        now = clock.now_iso()
        existing = await _existing(
            tx, "manifest.existing_assets", "asset", [a.id for a in contents.assets]
        )
        assets = plan_assets(contents.assets, existing, now)
        for chunk in _batches(assets.rows):
            await tx.run("manifest.write_assets", rows=list(chunk))

        present = assets.written_ids | set(existing)
        edges = sorted(
            (
                {"source": e.source, "target": e.target, "transformation": e.transformation}
                for e in contents.edges
                if e.source in present and e.target in present
            ),
            key=lambda e: (e["source"], e["target"]),
        )
        created = 0
        for chunk in _batches(edges):
            rows = await tx.run("lineage.merge_edges", edges=list(chunk), origin=origin, now=now)
            created += int(rows[0]["created"] or 0)
        removed = 0
        if prune:
            keep = [f"{e['source']}\n{e['target']}" for e in edges]
            removed = int(
                (await tx.run("manifest.prune_edges", origin=origin, keep=keep))[0]["removed"] or 0
            )

        existing_rules = await _existing(
            tx, "manifest.existing_rules", "rule", [r.id for r in contents.rules]
        )
        rules = plan_rules(contents.rules, existing_rules, present, origin, now)
        for chunk in _batches(rules.rows):
            await tx.run("manifest.write_rules", rows=list(chunk))
        rules_removed = 0
        if prune:
            rows = await tx.run(
                "manifest.prune_rules", origin=origin, keep=sorted(rules.written_ids)
            )
            rules_removed = int(rows[0]["removed"] or 0)

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
        )
        changed = (
            assets.created
            + assets.updated
            + created
            + removed
            + rules.created
            + rules.updated
            + rules_removed
        )
        if changed:
            await emit(tx, "lineage.manifest.ingested", summary, actor)
        return summary

    return await graph.write_tx(work, timeout_s=INGEST_TIMEOUT_S)
