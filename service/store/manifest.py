"""dbt manifest ingestion over `cypher/manifest/` and the lineage upsert.

The manifest is read and validated whole before anything is written (bad input
writes nothing). It is then written in batches, each its own transaction of at
most BATCH_ROWS rows and about BATCH_BYTES of text, and at most the configured
manifest timeout long: a 10,000-model manifest carries hundreds of MB of SQL, more
than one Neo4j transaction should hold. The prune and the summary event come last,
in one transaction. Every write is an idempotent upsert, so an upload cut short is
completed by the next one.

Edges and column mappings are written by `lineage.merge_between_assets`, the check
bulk lineage has: an asset deleted after its batch was written is made anew as a
placeholder (and said in the warnings), so no edge is counted that was not written.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from service import clock
from service.domain.datasets import DatasetRef
from service.domain.dbt.identity import asset_datasets, decide, redirected, takes_over, weak_ids
from service.domain.dbt_manifest import ManifestContents
from service.domain.manifest_plan import plan_assets, plan_column_edges, plan_rules
from service.domain.origins import DBT_PREFIX
from service.errors import Conflict
from service.graph import Graph, Reader, Tx
from service.models.manifest import (
    AssetCounts,
    ColumnLineageSummary,
    EdgeCounts,
    ManifestSummary,
    RuleCounts,
)
from service.store import (
    asset_domains,
    asset_versions,
    column_tags,
    edge_sets,
    identity,
    lineage,
    summary_places,
)
from service.store.outbox import emit

BATCH_ROWS = 5_000
# Each batch is packed whole by the driver before it is sent: 4 MiB of SQL keeps that
# buffer small beside the manifest, at a few more (cheap) transactions.
BATCH_BYTES = 4 * 1024 * 1024
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


@dataclass(frozen=True)
class _Writer:
    """Write transactions of one upload, each allowed the manifest timeout."""

    graph: Graph
    timeout_s: float

    async def tx(self, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await self.graph.write_tx(work, timeout_s=self.timeout_s)

    async def run(self, query: str, **params: Any) -> list[Any]:
        return await self.tx(lambda tx: tx.run(query, **params))


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
    writer: _Writer, contents: ManifestContents, namespace: str | None, actor: str
) -> tuple[ManifestContents, dict[str, DatasetRef], list[str]]:
    """The manifest as it lands: sources whose table another asset holds, and nodes
    whose id is a former id, redirected to that asset; each remaining table's dataset.
    A model claiming a dataset that another model or an API asset holds: 409, nothing
    written."""
    datasets, warnings = asset_datasets(contents, namespace) if namespace else ({}, [])
    graph = writer.graph
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

        async def add_aliases(tx: Tx) -> None:
            await tx.run("identity.add_aliases", rows=[list(pair) for pair in fresh])
            asset_versions.record(tx, sorted({h for _, h in fresh}), clock.now_iso(), actor)

        await writer.tx(add_aliases)
    kept = {k: v for k, v in datasets.items() if k not in decision.redirects}
    return redirected(contents, decision.redirects), kept, warnings


async def _write_assets(
    writer: _Writer, rows: list[dict[str, Any]], weak: set[str], actor: str, now: str
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
        # The rules again, in this transaction: a domain changed since the plan counts.
        domains = await asset_domains.current(tx)
        placed = [{**r, "props": asset_domains.placed(r["props"], domains)} for r in rows]
        await tx.run("manifest.write_assets", rows=placed)
        await column_tags.sync_many(tx, {r["id"]: _column_tags(r["props"]) for r in rows}, actor)
        asset_versions.record(tx, [r["id"] for r in rows], now, actor)
        return merged

    return await writer.tx(work)


def _column_tags(props: Mapping[str, Any]) -> dict[str, list[str]]:
    """A written asset's tagged columns, name -> tags, from its `columns_json`."""
    columns = orjson.loads(props["columns_json"]) if props.get("columns_json") else []
    return {c["name"]: list(c["tags"]) for c in columns if c.get("tags")}


@dataclass
class _Lineage:
    """Edge and column rows as written (ends made sure of), and what writing them did."""

    edges: list[dict[str, Any]] = field(default_factory=list)
    columns: list[dict[str, Any]] = field(default_factory=list)
    created: int = 0
    columns_created: int = 0
    placeholders: int = 0

    @property
    def warnings(self) -> list[str]:
        if not self.placeholders:
            return []
        return [
            f"{self.placeholders} asset(s) of this manifest were deleted while it was being "
            "written: they are placeholders now, which the next upload fills in again"
        ]


async def _write_lineage(
    writer: _Writer,
    contents: ManifestContents,
    edges: list[dict[str, Any]],
    origin: str,
    now: str,
    actor: str,
) -> _Lineage:
    """The edges in batches, then the column mappings along the edges written, each
    batch through the check that every row was written. Placeholders made for assets
    deleted meanwhile record no version (a placeholder has none)."""
    done = _Lineage()
    for chunk in batches(edges, edge_size):

        async def edge_batch(tx: Tx, chunk: list[dict[str, Any]] = chunk) -> Any:
            rules = await asset_domains.current(tx)
            return await lineage.merge_between_assets(tx, chunk, [], origin, now, rules)

        merged, written, _, made = await writer.tx(edge_batch)
        done.edges += written
        done.created += merged.created
        done.placeholders += made
    pairs = {(e["source"], e["target"]) for e in edges}
    for chunk in batches(plan_column_edges(contents, pairs), column_size):

        async def column_batch(tx: Tx, chunk: list[dict[str, Any]] = chunk) -> Any:
            rules = await asset_domains.current(tx)
            return await lineage.merge_between_assets(tx, [], chunk, origin, now, rules)

        merged, _, written, made = await writer.tx(column_batch)
        done.columns += written
        done.columns_created += merged.columns_created
        done.placeholders += made
    return done


async def ingest(
    graph: Graph,
    contents: ManifestContents,
    prune: bool,
    actor: str,
    namespace: str | None = None,
    *,
    timeout_s: float,
) -> ManifestSummary:
    """`namespace`: where the project's tables live (normalised), so that its models,
    seeds, snapshots and sources hold their datasets; None: they hold none.
    `timeout_s`: how long each of the upload's transactions may run."""
    writer = _Writer(graph, timeout_s)
    origin = f"{DBT_PREFIX}{contents.project}"
    now = clock.now_iso()
    contents, datasets, identity_warnings = await _settle_identity(
        writer, contents, namespace, actor
    )
    existing = await _existing(
        graph, "manifest.existing_assets", "asset", [a.id for a in contents.assets]
    )
    weak = weak_ids(contents)
    domains = await writer.tx(asset_domains.current)
    assets = plan_assets(contents.assets, existing, now, datasets, weak, domains)
    merged = 0
    for rows in batches(assets.rows, asset_size):
        merged += await _write_assets(writer, rows, weak, actor, now)

    present = assets.written_ids | set(existing)
    written = await _write_lineage(
        writer, contents, manifest_edges(contents, present), origin, now, actor
    )

    existing_rules = await _existing(
        graph, "manifest.existing_rules", "rule", [r.id for r in contents.rules]
    )
    rules = plan_rules(contents.rules, existing_rules, present, origin, now)
    for rows in batches(rules.rows):
        await writer.run("manifest.write_rules", rows=rows)

    async def finish(tx: Tx) -> ManifestSummary:
        removed = rules_removed = columns_removed = 0
        let_go = edge_sets.Withdrawn()
        if prune:
            # The shared withdrawal records the history and announces what left.
            let_go = await edge_sets.retire(
                tx, origin, written.edges, written.columns, actor, clock.now_iso()
            )
            removed = let_go.counts.edges_removed
            columns_removed = let_go.counts.column_mappings_removed
            kept_rules = sorted(rules.written_ids)
            pruned = await tx.run("manifest.prune_rules", origin=origin, keep=kept_rules)
            rules_removed = int(pruned[0]["removed"] or 0)
        summary = ManifestSummary(
            project=contents.project,
            dbt_version=contents.dbt_version,
            dbt_schema_version=contents.schema_version,
            assets=AssetCounts(created=assets.created, updated=assets.updated, merged=merged),
            edges=EdgeCounts(
                created=written.created,
                existing=len(written.edges) - written.created,
                removed=removed,
            ),
            quality_rules=RuleCounts(
                created=rules.created, updated=rules.updated, removed=rules_removed
            ),
            skipped=contents.skipped,
            warnings=[
                *contents.warnings,
                *identity_warnings,
                *assets.warnings,
                *rules.warnings,
                *written.warnings,
            ],
            column_lineage=ColumnLineageSummary(
                nodes=contents.column_lineage.nodes,
                edges=EdgeCounts(
                    created=written.columns_created,
                    existing=len(written.columns) - written.columns_created,
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
            + written.created
            + written.placeholders
            + removed
            + rules.created
            + rules.updated
            + rules_removed
            + written.columns_created
            + let_go.counts.edges
            + let_go.counts.column_mappings
        )
        if changed:
            touched = [a.id for a in contents.assets] + summary_places.row_ends(written.edges, {})
            # The summary's transaction places no asset: it reads the rules once, here.
            hides = await summary_places.hides_in(tx, touched, await asset_domains.current(tx))
            emit(tx, "lineage.manifest.ingested", summary, actor, hides_in=hides)
        return summary

    return await writer.tx(finish)
