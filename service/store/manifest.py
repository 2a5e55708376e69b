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
from service.domain.datasets import DatasetRef
from service.domain.dbt.identity import asset_datasets, decide, redirected, takes_over, weak_ids
from service.domain.dbt_manifest import ManifestContents
from service.domain.manifest_plan import plan_assets, plan_column_edges, plan_rules
from service.errors import Conflict
from service.graph import Graph, Reader, Tx
from service.models.manifest import (
    AssetCounts,
    ColumnLineageSummary,
    EdgeCounts,
    ManifestSummary,
    RuleCounts,
)
from service.store import identity
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


async def _read_chunks(graph: Graph, items: list[str], read: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for chunk in batches(items):

        async def work(reader: Reader, chunk: list[str] = chunk) -> dict[str, Any]:
            return dict(await read(reader, chunk))

        found.update(await graph.read_session(work))
    return found


async def _settle_identity(
    graph: Graph, contents: ManifestContents, namespace: str | None
) -> tuple[ManifestContents, dict[str, DatasetRef], list[str]]:
    """The manifest as it lands: sources whose table another asset holds, and nodes
    whose id is a former id, redirected to that asset; each remaining table's dataset.
    A model claiming a dataset that another model or an API asset holds: 409, nothing
    written."""
    datasets, warnings = asset_datasets(contents, namespace) if namespace else ({}, [])
    aliases = await _read_chunks(graph, [a.id for a in contents.assets], identity.aliased)
    holders = await _read_chunks(graph, [r.key for r in datasets.values()], identity.holders)
    decision = decide({a.id: a for a in contents.assets}, datasets, holders, aliases)
    if decision.conflicts:
        raise Conflict(
            f"{len(decision.conflicts)} dataset(s) of this manifest are held by other assets "
            "created explicitly: "
            + ", ".join(f"{a} ({holder})" for a, holder, _ in decision.conflicts[:10]),
            code="dataset_taken",
            extra={
                "conflicts": [
                    {
                        "asset": a,
                        "holder": holder,
                        "dataset": {"namespace": r.namespace, "name": r.name},
                    }
                    for a, holder, r in decision.conflicts
                ]
            },
        )
    fresh = sorted((a, h) for a, h in decision.redirects.items() if a not in aliases)
    if fresh:
        await _write(graph, "identity.add_aliases", rows=[list(pair) for pair in fresh])
    kept = {k: v for k, v in datasets.items() if k not in decision.redirects}
    return redirected(contents, decision.redirects), kept, warnings


async def _write_assets(
    graph: Graph, rows: list[dict[str, Any]], weak: set[str], actor: str, now: str
) -> int:
    """One batch of asset rows; first, in the same transaction, each weak holder of a
    row's dataset (a placeholder, another project's source) is merged into the row's
    asset, so a writer racing this upload is seen here and converges. Merges made."""

    async def work(tx: Tx) -> int:
        claims = {r["props"]["dataset_key"]: r for r in rows if r["props"].get("dataset_key")}
        merged = 0
        for key, holder in (await identity.holders(tx, list(claims))).items():
            row = claims[key]
            if holder.id == row["id"]:
                continue
            if not takes_over(holder, row["id"] in weak):
                raise identity.taken(
                    DatasetRef(row["props"]["dataset_namespace"], row["props"]["dataset_name"]),
                    holder.id,
                )
            await tx.run("identity.ensure_asset", id=row["id"], now=now)
            into = (await identity.merge_into(tx, holder.id, row["id"], actor)).into
            row["props"] = {**row["props"], "aliases": into.get("aliases", [])}
            merged += 1
        await tx.run("manifest.write_assets", rows=rows)
        return merged

    return await graph.write_tx(work, timeout_s=INGEST_TIMEOUT_S)


async def ingest(
    graph: Graph,
    contents: ManifestContents,
    prune: bool,
    actor: str,
    namespace: str | None = None,
) -> ManifestSummary:
    """`namespace`: where the project's tables live (normalised), so that its models,
    seeds, snapshots and sources hold their datasets; None: they hold none."""
    origin = f"dbt:{contents.project}"
    now = clock.now_iso()
    contents, datasets, identity_warnings = await _settle_identity(graph, contents, namespace)
    existing = await _existing(
        graph, "manifest.existing_assets", "asset", [a.id for a in contents.assets]
    )
    weak = weak_ids(contents)
    assets = plan_assets(contents.assets, existing, now, datasets, weak)
    merged = 0
    for rows in batches(assets.rows, asset_size):
        merged += await _write_assets(graph, rows, weak, actor, now)

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
            assets=AssetCounts(created=assets.created, updated=assets.updated, merged=merged),
            edges=EdgeCounts(created=created, existing=len(edges) - created, removed=removed),
            quality_rules=RuleCounts(
                created=rules.created, updated=rules.updated, removed=rules_removed
            ),
            skipped=contents.skipped,
            warnings=[
                *contents.warnings,
                *identity_warnings,
                *assets.warnings,
                *rules.warnings,
            ],
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
            merged
            + assets.created
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
