"""Column tags and their inheritance along column lineage, over `cypher/columns/`.

Direct tags are the asset's declared columns' `tags`, mirrored onto the (:Column)
nodes that column lineage joins whenever an asset is written. Inherited tags are
(parent)-[:TAG_FLOWS {tag, source, distance, kind}]->(column) relationships, one per
inheriting column and tag (`service.domain.column_spread`), recomputed in the writing
transaction over the region a change may affect: a tag set or removed, a mapping
written or removed, an asset deleted. Each recomputation announces the columns that
gained or lost a tag (`column.tag.inherited`, `column.tag.lost`), one event per asset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from service import clock
from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.domain.column_kinds import KINDS
from service.domain.column_spread import (
    DEFAULT_STOPS,
    Change,
    Feed,
    Held,
    RegionColumn,
    recompute,
)
from service.domain.lineage import column_key
from service.domain.provenance_redaction import redact_provenance, sources
from service.domain.redaction import unreadable
from service.graph import Graph, Reader, Tx
from service.models.assets import Asset, Column
from service.models.columns import (
    AssetColumn,
    AssetColumns,
    ColumnTagRule,
    InheritedTag,
    PathStep,
)
from service.models.lineage import ColumnRef
from service.store import domain_guard
from service.store.outbox import Pending, emit_many

SYSTEM_ACTOR = "system:column-tags"


async def sync_declared(tx: Tx, asset_id: str, columns: Sequence[Column], actor: str) -> None:
    """After an asset write: its declared columns' tags onto its (:Column) nodes, and
    each tag that was set or removed somewhere recomputed from there."""
    await sync_many(tx, {asset_id: {c.name: list(c.tags) for c in columns if c.tags}}, actor)


async def sync_many(tx: Tx, declared: Mapping[str, Mapping[str, list[str]]], actor: str) -> None:
    """`sync_declared` for a batch of assets (a dbt manifest's): asset id -> each tagged
    declared column's tags. Two statements for the batch, then one recomputation per
    tag that was set or removed somewhere."""
    ids = sorted(declared)
    if not ids:
        return
    read = await tx.run("columns.asset_tags", ids=ids, separator=column_key("", ""))
    now: dict[tuple[str, str], list[str]] = {(a, n): list(t) for a, n, t in read[0]["tagged"]}
    wanted = {(a, n): tags for a in ids for n, tags in declared[a].items() if tags}
    changed = sorted(k for k in set(now) | set(wanted) if now.get(k, []) != wanted.get(k, []))
    if not changed:
        return
    rows = [
        {"asset": a, "key": column_key(a, n), "name": n, "tags": wanted.get((a, n), [])}
        for a, n in changed
    ]
    await tx.run("columns.set_tags", rows=rows)
    seeds: dict[str, set[str]] = {}
    for asset, name in changed:
        for tag in set(now.get((asset, name), [])) ^ set(wanted.get((asset, name), [])):
            seeds.setdefault(tag, set()).add(column_key(asset, name))
    for tag in sorted(seeds):
        await spread(tx, tag, seeds[tag], actor)


# Tag -> the columns that inherited it through what a change deleted, as they did until
# then (their TAG_FLOWS went with it: read before, or by the deleting statement).
HeldBefore = Mapping[str, Sequence[RegionColumn]]
# (asset id, private domain) of a deleted asset an event may name as a tag's source.
Gone = tuple[tuple[str, str], ...]


def held_gone(rows: Iterable[Sequence[Any]]) -> HeldBefore:
    """Rows [tag, key, asset, name, parent, source, distance, kind] of the columns a
    removal of mappings deleted, left in no column lineage (`lineage.delete_edge`,
    `lineage.retire_edges`), by tag: for `after_mappings`."""
    by_tag: dict[str, list[RegionColumn]] = {}
    for tag, *held in rows:
        by_tag.setdefault(tag, []).append(_held_column(*held))
    return by_tag


async def after_mappings(
    tx: Tx,
    pairs: Iterable[Sequence[str]],
    actor: str = SYSTEM_ACTOR,
    held_before: HeldBefore | None = None,
) -> None:
    """After column mappings ([source key, target key]) were written or removed: every
    tag on their ends recomputed from their targets (and from the columns `held_before`
    names: columns the removal deleted, `held_gone`)."""
    listed = [list(p) for p in pairs]
    if not listed:
        return
    earlier = held_before or {}
    seeds = {tag: [c.key for c in columns] for tag, columns in earlier.items()}
    for row in await tx.run("columns.pair_tags", pairs=listed):
        seeds.setdefault(row["tag"], []).extend(row["targets"])
    for tag in sorted(seeds):
        await spread(tx, tag, seeds[tag], actor, earlier.get(tag, ()))


async def before_asset_delete(tx: Tx, asset_id: str) -> HeldBefore:
    """What the asset's columns pass on to other assets' columns, as those inherit it
    now: call before they are deleted, then `after_asset_delete` with the answer in the
    same transaction."""
    rows = await tx.run("columns.asset_flows", prefix=column_key(asset_id, ""))
    return _held_by_tag(rows)


async def after_asset_delete(tx: Tx, held: HeldBefore, actor: str, gone: Gone = ()) -> None:
    """`gone`: the deleted asset with its private domain, when it had one, for the
    `column.tag.lost` events that name it as where a tag came from."""
    for tag, columns in held.items():
        await spread(tx, tag, [c.key for c in columns], actor, columns, gone)


async def spread(
    tx: Tx,
    tag: str,
    seeds: Iterable[str],
    actor: str,
    held_before: Iterable[RegionColumn] = (),
    gone: Gone = (),
) -> None:
    """Recompute where `tag` is inherited after a change at `seeds` (column keys);
    `held_before`, `gone`: see `recompute`, `after_asset_delete`."""
    listed = sorted(set(seeds))
    if not listed:
        return
    locked = await tx.run("columns.lock_tag", tag=tag, default=list(DEFAULT_STOPS))
    stops = list(locked[0]["stops"])
    rows = await tx.run("columns.tag_region", tag=tag, seeds=listed, stops=stops)
    change = recompute((_region_column(r) for r in rows[0]["region"]), held_before)
    if change.drop or change.rows:
        await tx.run("columns.save_flows", tag=tag, drop=change.drop, rows=change.rows)
    emit_many(tx, _events(tag, change, gone), actor)


def _held_by_tag(rows: Iterable[Any]) -> dict[str, list[RegionColumn]]:
    """Rows [tag, [[key, asset, name, parent, source, distance, kind]]] as columns
    holding the tag before (`columns.asset_flows`)."""
    return {row["tag"]: [_held_column(*held) for held in row["held"]] for row in rows}


def _held_column(
    key: str, asset: str, name: str, parent: str, source: str, distance: int, kind: str
) -> RegionColumn:
    return RegionColumn(key, asset, name, False, Held(int(distance), source, parent, kind))


def _region_column(row: list[Any]) -> RegionColumn:
    """[key, asset, name, direct, parent, source, distance, kind, feeds] (columns.tag_region)."""
    key, asset, name, direct, parent, source, distance, kind, feeds = row
    before = Held(int(distance), source, parent, kind) if parent is not None else None
    fed = [
        Feed(f[0], f[1], bool(f[2]), None if f[3] is None else int(f[3]), f[4])
        for f in feeds
        if f[0] is not None
    ]
    return RegionColumn(key, asset, name, bool(direct), before, fed)


def _events(tag: str, change: Change, gone: Gone = ()) -> list[Pending]:
    """One `column.tag.inherited` and one `column.tag.lost` per asset that has any, each
    with the `gone` assets it names as a source."""
    events: list[Pending] = []
    for type_, found in (("column.tag.inherited", change.gained), ("column.tag.lost", change.lost)):
        by_asset: dict[str, list[dict[str, Any]]] = {}
        for column, held in found:
            by_asset.setdefault(column.asset, []).append(
                {"column": column.name, "from": _ref(held.source).model_dump()}
            )
        events += [
            Pending(
                type_,
                {"asset_id": asset, "tag": tag, "columns": listed},
                gone=tuple(g for g in gone if any(c["from"]["asset"] == g[0] for c in listed)),
            )
            for asset, listed in sorted(by_asset.items())
        ]
    return events


def _ref(key: str) -> ColumnRef:
    asset, _, name = key.partition("\n")
    return ColumnRef(asset=asset, column=name)


async def listing(graph: Graph, asset: Asset, viewer: Principal | None = None) -> AssetColumns:
    """The asset's columns as classification sees them: declared ones in their order,
    then the others column lineage or tags know of, by name. Provenance through assets
    `viewer` may not read shows stand-ins (`provenance_redaction`; None: the service)."""

    async def work(tx: Reader) -> list[AssetColumn]:
        return await _read(tx, asset.id, asset.columns)

    columns = await graph.read_session(work)
    if viewer is not None and not domain_rules.sees_everything(viewer):
        found = await domain_guard.placed_if_domains(graph, sources(columns))
        places = {i: {"domain": p.domain, "private": p.private} for i, p in found.items()}
        columns = redact_provenance(columns, places, lambda place: unreadable(viewer, place))
    return AssetColumns(asset=asset.id, columns=columns)


async def _read(tx: Reader, asset_id: str, declared: Sequence[Column]) -> list[AssetColumn]:
    rows = await tx.run("columns.inherited", prefix=column_key(asset_id, ""))
    found = {r["name"]: r for r in rows}
    listed = [c.name for c in declared] + sorted(set(found) - {c.name for c in declared})
    types = {c.name: c.type for c in declared}
    return [_column(name, types.get(name), found.get(name)) for name in listed]


def _column(name: str, type_: str | None, row: Any) -> AssetColumn:
    if row is None:
        return AssetColumn(name=name, type=type_, tags=[], inherited=[])
    return AssetColumn(
        name=name,
        type=type_,
        tags=list(row["tags"]),
        inherited=[_inherited(i) for i in row["inherited"]],
    )


def _inherited(item: Any) -> InheritedTag:
    path, kinds = item["path"], item["kinds"]
    steps = [
        PathStep(asset=a, column=c, kind=None if i == 0 else kinds[i - 1])
        for i, (a, c) in enumerate(path)
    ]
    return InheritedTag(
        tag=item["tag"], **{"from": ColumnRef(asset=path[0][0], column=path[0][1])}, path=steps
    )


async def rule(graph: Graph, tag: str) -> ColumnTagRule:
    rows = await graph.read("columns.get_rule", tag=tag)
    stops = rows[0]["stops"]
    return ColumnTagRule(
        tag=tag,
        stops=list(DEFAULT_STOPS if stops is None else stops),
        default=stops is None,
        updated_at=rows[0]["updated_at"],
    )


async def rule_assets(graph: Graph, tag: str, stops: Sequence[str]) -> list[str]:
    """The assets whose classification the rule `stops` for `tag` may change: those
    holding the tag, those it may reach under the rule, those inheriting it now."""
    rows = await graph.read("columns.rule_assets", tag=tag, stops=_ordered(stops))
    return sorted(rows[0]["assets"])


def _ordered(stops: Sequence[str]) -> list[str]:
    return [kind for kind in KINDS if kind in stops]


async def set_rule(graph: Graph, tag: str, stops: Sequence[str], actor: str) -> ColumnTagRule:
    """A new rule for `tag`, and, when it changed, the tag recomputed everywhere from
    every column holding it (in the same transaction)."""
    wanted = _ordered(stops)

    async def work(tx: Tx) -> None:
        now = clock.now_iso()
        rows = await tx.run(
            "columns.set_rule", tag=tag, stops=wanted, default=list(DEFAULT_STOPS), now=now
        )
        if rows[0]["changed"]:
            holders = (await tx.run("columns.tag_holders", tag=tag))[0]["keys"]
            await spread(tx, tag, holders, actor)

    await graph.write_tx(work)
    return await rule(graph, tag)
