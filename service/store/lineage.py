"""Lineage writes and traversals over `cypher/lineage/`, for assets and their columns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import orjson

from service import clock
from service.domain import origins
from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.domain.datasets import DatasetRef
from service.domain.domains import DomainRules
from service.domain.history import as_of_params
from service.domain.lineage import (
    DATASET_MARK,
    EdgeBatch,
    LineageView,
    ReachedColumn,
    assemble_columns,
    column_key,
    remap_rows,
)
from service.domain.lineage_pages import (
    NO_FILTERS,
    UNSHUFFLED,
    After,
    Filters,
    Page,
    Seal,
    Shuffle,
    Walk,
    assemble_page,
    check_root,
    decode,
    encode,
    page_params,
    shuffle_for,
)
from service.domain.redaction import (
    Redacted,
    foreign_ends,
    hidden_domains,
    redact,
    redact_columns,
    renamed_caps,
    sorted_as_shown,
    unreadable,
)
from service.driver_errors import ConcurrentChange
from service.errors import FieldError, NotFound, Unprocessable
from service.graph import Graph, Reader, Tx
from service.models.lineage import (
    BulkResult,
    ColumnGraph,
    ColumnRef,
    Edge,
    EdgeIn,
    MappingCounts,
)
from service.store import (
    asset_domains,
    column_tags,
    domain_guard,
    edge_sets,
    history,
    identity,
    lineage_fanout,
    summary_places,
)
from service.store.outbox import emit

API_ORIGIN = origins.API
COLUMN_WALKS = {"upstream": "lineage.column_upstream", "downstream": "lineage.column_downstream"}
COLUMN_WALKS_AS_OF = {
    "upstream": "lineage.column_upstream_as_of",
    "downstream": "lineage.column_downstream_as_of",
}


@dataclass(frozen=True)
class Merged:
    """What one writer's batch of edge and column rows did."""

    created: int = 0
    updated: int = 0
    columns_created: int = 0
    columns_updated: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.columns_created or self.columns_updated)


async def _ensure_endpoints(
    tx: Tx, ids: list[str], strict: bool, now: str, rules: DomainRules
) -> tuple[dict[str, str], int]:
    """(former ids among `ids` -> the ids they name now, placeholders made), in one
    statement: the other ids that name no asset get placeholders (`strict`: 422),
    placed by `rules`."""
    if not ids:
        return {}, 0
    if strict:
        row = (await tx.run("lineage.missing_assets", ids=ids))[0]
        missing = row["missing"]
        if missing:
            raise Unprocessable(
                f"{len(missing)} asset(s) do not exist: {', '.join(missing[:10])}",
                code="unknown_assets",
                errors=[
                    FieldError(("body",), f"unknown asset {m!r}", "unknown_asset") for m in missing
                ],
                extra={"unknown_assets": missing},
            )
        return dict(row["aliased"]), 0
    placing = asset_domains.placeholder_domains(ids, rules)
    row = (await tx.run("lineage.merge_placeholders", ids=ids, now=now, **placing))[0]
    return dict(row["aliased"]), int(row["created"])


async def ensure_ids(
    tx: Tx, ids: list[str], now: str, rules: DomainRules
) -> tuple[dict[str, str], int]:
    """(former ids among `ids` -> the ids they name now, placeholders made for the
    others that name no asset, placed by `rules`): for writers naming assets by id
    (OpenLineage's `governance:asset` namespace)."""
    return await _ensure_endpoints(tx, ids, False, now, rules)


async def merge_rows(
    tx: Tx, edges: list[dict[str, Any]], columns: list[dict[str, Any]], origin: str, now: str
) -> Merged:
    """Upsert edge rows, then the column rows along them, for one writer. The endpoints
    were made sure of earlier in `tx`; one that another transaction deleted since then
    matches nothing, so the rows written are counted, and fewer than given starts the
    transaction again (the retry makes the endpoint anew). A writer that may replace
    its set indexes the rows first (`edge_sets.index`)."""
    await edge_sets.index(tx, origin, edges, columns)
    merged = Merged()
    if edges:
        counts = (await tx.run("lineage.merge_edges", edges=edges, origin=origin, now=now))[0]
        _all_written(counts, edges)
        await history.record_edges(tx, counts["changed_pairs"], now)
        merged = Merged(created=int(counts["created"] or 0), updated=int(counts["updated"] or 0))
    if not columns:
        return merged
    mapped = (await tx.run("lineage.merge_columns", rows=columns, origin=origin, now=now))[0]
    _all_written(mapped, columns)
    await history.record_columns(tx, mapped["changed_pairs"], now)
    await column_tags.after_mappings(tx, mapped["changed_pairs"])
    return replace(
        merged,
        columns_created=int(mapped["created"] or 0),
        columns_updated=int(mapped["updated"] or 0),
    )


async def merge_between_assets(
    tx: Tx,
    edges: list[dict[str, Any]],
    columns: list[dict[str, Any]],
    origin: str,
    now: str,
    rules: DomainRules,
) -> tuple[Merged, list[dict[str, Any]], list[dict[str, Any]], int]:
    """Rows between asset ids the caller wrote or found in earlier transactions (a dbt
    manifest's batches), so any end may have been deleted or merged since: each end is
    made sure of as a bulk request's are (a placeholder for one deleted, the asset an
    alias names now), then `merge_rows` counts what was written. (what was merged, the
    edge and column rows as written, placeholders made)"""
    ids = sorted({row[end] for row in (*edges, *columns) for end in ("source", "target")})
    ends, made = await _ensure_endpoints(tx, ids, False, now, rules)
    edges, columns = _between_two(remap_rows(edges, ends)), _between_two(remap_rows(columns, ends))
    return await merge_rows(tx, edges, columns, origin, now), edges, columns, made


def _between_two(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows whose ends did not become one asset through a merge."""
    return [row for row in rows if row["source"] != row["target"]]


def _all_written(counts: Mapping[str, Any], rows: list[dict[str, Any]]) -> None:
    if counts["total"] != len(rows):
        raise ConcurrentChange(f"{len(rows) - counts['total']} endpoint(s) deleted meanwhile")


async def merge_by_dataset(
    tx: Tx,
    datasets: list[DatasetRef],
    edges: Mapping[str, list[dict[str, Any]]],
    columns: Mapping[str, list[dict[str, Any]]],
    now: str,
    rules: DomainRules,
) -> tuple[dict[str, str], int, list[Merged]]:
    """Rows whose ends are datasets (DATASET_MARK + key), by writer: each dataset
    resolved to its holder (a placeholder, placed by `rules`, made where nobody holds
    it), then each writer's rows merged. (dataset end -> asset id, placeholders made,
    per writer)."""
    ends, made = await dataset_ends(tx, datasets, now, rules)
    merged = [
        await merge_rows(
            tx,
            remap_rows(edges.get(origin, []), ends),
            remap_rows(columns.get(origin, []), ends),
            origin,
            now,
        )
        for origin in sorted(set(edges) | set(columns))
    ]
    return ends, made, merged


async def dataset_ends(
    tx: Tx,
    datasets: list[DatasetRef],
    now: str,
    rules: DomainRules,
    ids: Mapping[str, str] | None = None,
) -> tuple[dict[str, str], int]:
    """(each dataset end, DATASET_MARK + key -> the asset holding it, placeholders made
    by `rules` for the datasets nobody held: `<namespace>/<name>`, or the id `ids`
    gives by key)."""
    held, made = await identity.ensure_datasets(tx, datasets, now, rules, ids)
    return {DATASET_MARK + key: asset_id for key, asset_id in held.items()}, made


async def _resolve_ends(
    tx: Tx, batch: EdgeBatch, strict: bool, now: str, rules: DomainRules
) -> tuple[EdgeBatch, int]:
    """The batch with former ids and datasets replaced by the assets they name, and how
    many placeholders were made: for ids that name nothing and for datasets nobody holds
    (`strict`: 422 instead)."""
    ends, made = await _ensure_endpoints(tx, batch.asset_ids, strict, now, rules)
    if batch.datasets:
        if strict:
            found = await identity.holders(tx, [r.key for r in batch.datasets.values()])
            _refuse_unknown_datasets([r for r in batch.datasets.values() if r.key not in found])
            held = {key: holder.id for key, holder in found.items()}
        else:
            held, placeholders = await identity.ensure_datasets(
                tx, list(batch.datasets.values()), now, rules
            )
            made += placeholders
        ends.update({DATASET_MARK + key: asset_id for key, asset_id in held.items()})
    return batch.resolved(ends), made


def _refuse_unknown_datasets(missing: list[DatasetRef]) -> None:
    if missing:
        names = [f"{r.namespace} {r.name}" for r in missing]
        raise Unprocessable(
            f"{len(missing)} dataset(s) held by no asset: {', '.join(names[:10])}",
            code="unknown_assets",
            errors=[FieldError(("body",), f"no asset holds {n}", "unknown_dataset") for n in names],
            extra={
                "unknown_datasets": [{"namespace": r.namespace, "name": r.name} for r in missing]
            },
        )


async def _merge(
    tx: Tx, given: EdgeBatch, origin: str, strict: bool, rules: DomainRules
) -> tuple[BulkResult, bool, EdgeBatch]:
    """(summary, whether an existing edge or column mapping changed, the batch written)."""
    now = clock.now_iso()
    batch, assets_created = await _resolve_ends(tx, given, strict, now, rules)
    merged = await merge_rows(tx, batch.rows, batch.columns, origin, now)
    summary = BulkResult(
        received=batch.received,
        created=merged.created,
        existing=len(batch.rows) - merged.created,
        assets_created=assets_created,
        column_mappings=MappingCounts(
            created=merged.columns_created, existing=len(batch.columns) - merged.columns_created
        )
        if batch.with_columns
        else None,
    )
    return summary, bool(merged.updated or merged.columns_created or merged.columns_updated), batch


async def write_bulk(
    graph: Graph,
    batch: EdgeBatch,
    strict: bool,
    actor: str,
    origin: str = API_ORIGIN,
    timeout_s: float | None = None,
    *,
    replace: bool = False,
) -> BulkResult:
    """All or nothing, in one transaction; repeating it changes nothing (and, having
    changed nothing, announces nothing). One summary event, not one per edge.
    `timeout_s` (the ingestion timeout) replaces the query timeout: a 10,000-edge
    request may take longer than a read is allowed to. `replace`: the batch is
    `origin`'s whole set, and the origin lets go of what it asserted outside it."""

    async def work(tx: Tx) -> BulkResult:
        rules = await asset_domains.current(tx)
        summary, updated, written = await _merge(tx, batch, origin, strict, rules)
        if replace:
            let_go = await edge_sets.retire(
                tx, origin, written.rows, written.columns, actor, clock.now_iso()
            )
            summary = summary.model_copy(update={"retired": let_go.counts})
            updated = updated or let_go.counts.changed
        if summary.created or summary.assets_created or updated:
            touched = summary_places.row_ends(written.rows, {})
            hides = await summary_places.hides_in(tx, touched, rules)
            emit(tx, "lineage.bulk.ingested", bulk_json(summary), actor, hides_in=hides)
        return summary

    return await graph.write_tx(work, timeout_s=timeout_s)


async def write_one(
    graph: Graph, edge: EdgeIn, strict: bool, actor: str, origin: str = API_ORIGIN
) -> tuple[Edge, bool]:
    async def work(tx: Tx) -> tuple[Edge, bool]:
        rules = await asset_domains.current(tx)
        summary, updated, written = await _merge(tx, EdgeBatch.of([edge]), origin, strict, rules)
        pair = written.rows[0]
        rows = await tx.run("lineage.get_edge", source=pair["source"], target=pair["target"])
        saved = Edge(**rows[0]["edge"])
        if summary.created:
            emit(tx, "lineage.edge.created", saved, actor)
        elif updated:
            emit(tx, "lineage.edge.updated", saved, actor)
        return saved, summary.created == 1

    return await graph.write_tx(work)


def bulk_json(summary: BulkResult) -> dict[str, Any]:
    """The bulk answer as sent: `column_mappings` only when the request had columns."""
    return summary.model_dump(mode="json", exclude_none=True)


async def page_edges(
    graph: Graph,
    source: str | None,
    target: str | None,
    origin: str | None,
    after: list[str],
    limit: int,
    readable: tuple[str, ...] | None = None,
) -> list[Edge]:
    """A former id given as `source` or `target` filters by the asset it names now.
    `readable`: the private domains the caller may read (None: all); edges touching
    the others are left out."""
    source = await identity.resolve_read(graph, source) if source else source
    target = await identity.resolve_read(graph, target) if target else target
    rows = await graph.read(
        "lineage.list_edges",
        source=source,
        target=target,
        origin=origin,
        after_source=after[0],
        after_target=after[1],
        limit=limit,
        readable=list(readable) if readable is not None else None,
    )
    return [Edge(**r["edge"]) for r in rows]


async def delete_edge(graph: Graph, source: str, target: str, actor: str) -> None:
    async def work(tx: Tx) -> None:
        ends = {
            "source": await identity.resolve(tx, source),
            "target": await identity.resolve(tx, target),
        }
        rows = await tx.run("lineage.get_edge", **ends)
        if not rows:
            raise NotFound(f"No edge {source!r} -> {target!r}.", code="edge_not_found")
        gone = Edge(**rows[0]["edge"])
        pairs = [
            (column_key(gone.source, c.source), column_key(gone.target, c.target))
            for c in gone.columns
        ]
        deleted = await tx.run("lineage.delete_edge", **ends)
        now = clock.now_iso()
        await history.record_edges(tx, [(gone.source, gone.target)], now)
        await history.record_columns(tx, pairs, now)
        held = column_tags.held_gone(deleted[0]["held"])
        await column_tags.after_mappings(tx, pairs, actor, held)
        emit(tx, "lineage.edge.deleted", gone, actor)

    await graph.write_tx(work)


async def traverse(
    graph: Graph,
    root_id: str,
    direction: str,
    depth: int,
    limit: int,
    *,
    token_hash: str | None = None,
    as_of: str | None = None,
    cursor: str | None = None,
    filters: Filters = NO_FILTERS,
    fanout: int | None = None,
    viewer: Principal | None = None,
    seal: Seal | None = None,
) -> LineageView:
    """One page of the nodes within `depth` hops (fewest-hop distance), nearest first,
    at most `limit` (the root, on the first page, included), in one statement that
    enumerates no paths; `cursor` continues after an earlier page of the same walk.
    With `token_hash`, the same statement re-checks that token and a refused one walks
    nothing (401). With `as_of` (an instant as the graph stores them), the graph as it
    stood then, from the history layer: 404 when the root did not exist then. With
    `fanout`, a hop-by-hop walk (`lineage_fanout`) that caps each node's expansion.
    With `viewer`, what that caller may not read comes back as stand-ins (a root it may
    not read is 404), and `seal` seals a cursor position that would name one."""
    walk = Walk(root_id, direction, depth, as_of, filters, fanout)
    plain = as_of is None and fanout is None  # its statement answers the root's domain
    if viewer is not None and not plain:
        await domain_guard.require_readable(graph, viewer, root_id)
    after = decode(cursor, walk, seal)
    readable = domain_rules.readable_private(viewer) if viewer is not None else None
    access = _access(token_hash, viewer)
    shuffle = shuffle_for(walk, seal)
    if fanout is not None:
        page = await lineage_fanout.page(
            graph, walk, after, limit, token_hash, readable, access, shuffle
        )
    else:
        page = await _walk_page(
            graph, walk, after, limit, token_hash, viewer, readable, access, shuffle
        )
    shown = await _redacted(graph, viewer, page)
    return LineageView(
        page.root,
        direction,
        depth,
        shown.nodes,
        sorted_as_shown(shown.edges) if shown.renamed else shown.edges,
        page.more,
        next_cursor=encode(walk, page.after, seal) if page.more else None,
        remaining=page.remaining,
        hidden=page.hidden,
        capped=renamed_caps(page.capped, shown.renamed),
        redacted=shown.count,
    )


async def placed_page(
    graph: Graph,
    root_id: str,
    direction: str,
    depth: int,
    limit: int,
    as_of: str,
    token_hash: str | None = None,
) -> Page:
    """The first page of the walk at `as_of` before any redaction, each node with its
    `domain` and `private`: for an answer that compares two walks and then redacts the
    comparison (`lineage_diff`). 404 when the root did not exist then."""
    walk = Walk(root_id, direction, depth, as_of)
    return await _walk_page(graph, walk, After(), limit, token_hash)


def _access(token_hash: str | None, viewer: Principal | None) -> list[str] | None:
    """What a statement re-checking a remembered token compares with the graph: the
    viewer's role and grants as read with it (a change raises `StaleAccess`)."""
    if token_hash is None or viewer is None:
        return None
    return list(viewer.access)


async def _redacted(graph: Graph, viewer: Principal | None, page: Page) -> Redacted:
    """The page with what `viewer` may not read as stand-ins: the owning teams read when
    there are any, and the domains of edge ends from earlier pages when there are such."""
    teams = page.teams
    if teams is None:
        teams = await domain_guard.owner_teams(graph, hidden_domains(viewer, page.nodes))
    elsewhere = {}
    if viewer is not None and not domain_rules.sees_everything(viewer):
        found = await domain_guard.placed(graph, foreign_ends(page.nodes, page.edges))
        elsewhere = {i: {"domain": p.domain, "private": p.private} for i, p in found.items()}
    return redact(viewer, page.nodes, page.edges, teams, elsewhere)


async def _walk_page(
    graph: Graph,
    walk: Walk,
    after: After,
    limit: int,
    token_hash: str | None,
    viewer: Principal | None = None,
    readable: tuple[str, ...] | None = None,
    access: list[str] | None = None,
    shuffle: Shuffle = UNSHUFFLED,
) -> Page:
    """`readable`: the private domains `viewer` may read (None: all), for the filters
    (an asset of another is never shown by one: `Filters.shows`) and the order (its
    stand-ins after the readable nodes of each distance, in `shuffle`'s order).
    `access`: see `_access`."""
    at = as_of_params(walk.as_of, clock.now_iso()) if walk.as_of else {}
    rows = await graph.read(
        "lineage.traverse_as_of" if walk.as_of else "lineage.traverse",
        {"depth": walk.depth},
        id=walk.root,
        downstream="downstream" in walk.sides,
        upstream="upstream" in walk.sides,
        now=clock.now_iso(),
        **page_params(
            limit, after, walk.filters, readable, shuffle, token_hash=token_hash, access=access
        ),
        **at,
    )
    row = rows[0]
    check_root(row["authorised"], row["root"], walk)
    if not walk.as_of and unreadable(viewer, row["root"]):  # absent to this caller
        raise NotFound(f"No asset with id {walk.root!r}.", code="asset_not_found")
    taken = row["nodes"] if not walk.as_of else [*row["down"], *row["up"]]
    page = assemble_page(
        walk,
        row["root"],
        after,
        taken,
        row["edges"] if not walk.as_of else [*row["down_edges"], *row["up_edges"]],
        {"downstream": row["pending_down"], "upstream": row["pending_up"]},
        {"downstream": row.get("hidden_down", 0), "upstream": row.get("hidden_up", 0)},
        readable,
    )
    if walk.as_of:
        return page
    return replace(page, teams={d: team for d, team in row["domain_teams"]})


async def delete_asset_columns(tx: Tx, asset_id: str) -> None:
    """Column lineage of an asset that `tx` deletes: call it in the deleting transaction
    (before or after `assets.delete`), or columns of the deleted asset linger."""
    await tx.run("lineage.delete_asset_columns", id=asset_id, prefix=column_key(asset_id, ""))


async def traverse_columns(
    graph: Graph,
    given_id: str,
    column: str,
    direction: str,
    depth: int,
    limit: int,
    as_of: str | None = None,
    viewer: Principal | None = None,
) -> ColumnGraph:
    """The column's lineage in one direction, nearest first: two single-row statements,
    neither enumerating paths. 404 for an unknown asset, and for a column the asset
    neither declares nor has column lineage for. With `as_of`, column lineage as it
    stood then (the asset and its declared columns too): the given id as it was then,
    else the asset a merge made it a former id of. With `viewer`, the columns of assets
    that caller may not read come back as stand-ins (who may read is decided as of now,
    also with `as_of`, as for the asset traversal)."""
    at = {"as_of": as_of} if as_of else {}
    walks = COLUMN_WALKS_AS_OF if as_of else COLUMN_WALKS

    async def walk(tx: Reader, asset_id: str) -> tuple[list[ReachedColumn], Any]:
        key = column_key(asset_id, column)
        rows = await tx.run(walks[direction], {"depth": depth}, key=key, limit=limit, **at)
        reached = [
            ReachedColumn(r["asset"], r["column"], int(r["distance"])) for r in rows[0]["reached"]
        ]
        keys = [key] + [column_key(r.asset, r.column) for r in reached]
        adjacent = await tx.run(
            "lineage.column_adjacent_as_of" if as_of else "lineage.column_adjacent",
            asset=asset_id,
            key=key,
            down_keys=keys if direction == "downstream" else [],
            up_keys=keys if direction == "upstream" else [],
            **at,
        )
        return reached, adjacent[0]

    async def work(tx: Reader) -> ColumnGraph:
        asset_id = await identity.resolve(tx, given_id)
        if as_of and asset_id != given_id:
            reached, adjacent = await walk(tx, given_id)
            if adjacent["asset_exists"]:
                asset_id = given_id
            else:
                reached, adjacent = await walk(tx, asset_id)
        else:
            reached, adjacent = await walk(tx, asset_id)
        _check_root(asset_id, column, adjacent)
        root = ColumnRef(asset=asset_id, column=column)
        nodes, edges, truncated = assemble_columns(
            root, reached, ((e[0], e[1], e[2], e[3], e[4]) for e in adjacent["edges"]), limit
        )
        return ColumnGraph(
            root=root,
            direction="upstream" if direction == "upstream" else "downstream",
            depth=depth,
            nodes=nodes,
            edges=edges,
            truncated=truncated,
        )

    return await _redacted_columns(graph, viewer, await graph.read_session(work))


async def _redacted_columns(
    graph: Graph, viewer: Principal | None, found: ColumnGraph
) -> ColumnGraph:
    """`found` with the columns of assets `viewer` may not read as stand-ins: the
    assets' domains read in one statement (none for a global admin)."""
    if viewer is None or domain_rules.sees_everything(viewer):
        return found
    placed = await domain_guard.placed_if_domains(graph, {n.asset for n in found.nodes})
    places = {i: {"domain": p.domain, "private": p.private} for i, p in placed.items()}
    teams = await domain_guard.owner_teams(graph, hidden_domains(viewer, places.values()))
    shown = redact_columns(viewer, found.nodes, found.edges, places, teams)
    return found.model_copy(
        update={"nodes": shown.nodes, "edges": shown.edges, "redacted": shown.count}
    )


def _check_root(asset_id: str, column: str, root: Any) -> None:
    if not root["asset_exists"]:
        raise NotFound(f"No asset with id {asset_id!r}.", code="asset_not_found")
    if root["column_exists"]:
        return
    declared = orjson.loads(root["columns_json"]) if root["columns_json"] else []
    if not any(c.get("name") == column for c in declared):
        raise NotFound(
            f"Asset {asset_id!r} has no column {column!r}: it is neither among the asset's "
            "columns nor in any column lineage.",
            code="column_not_found",
        )
