"""Asset reads and writes over the named queries in `cypher/assets/`.

Every write locks the node first (see `assets.lock_or_create`), decides in
Python what the new state is, then replaces the node: one transaction, no lost
updates, and an unchanged PUT costs no version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service import clock
from service.domain import text_search
from service.domain.assets import (
    IDENTITY,
    dataset_ref,
    from_node,
    node_properties,
    writable_document,
)
from service.domain.domains import DomainRules
from service.domain.preconditions import Expected
from service.errors import Conflict, NotFound, PreconditionFailed, validation_error
from service.graph import Graph, Tx
from service.models.assets import Asset, AssetFields
from service.store import (
    asset_domains,
    asset_versions,
    column_tags,
    history,
    identity,
    lineage,
    quality,
    versioned,
)
from service.store.outbox import emit


@dataclass(frozen=True)
class AssetFilter:
    type: str | None = None
    platform: str | None = None
    owner: str | None = None
    tags: tuple[str, ...] = ()
    placeholder: bool | None = None
    q: str | None = None
    dataset_namespace: str | None = None
    dataset_key: str | None = None
    domain: str | None = None
    # The private domains the caller may read (None: all, for a global admin); the
    # assets of the others are left out.
    readable: tuple[str, ...] | None = None


def _not_found(asset_id: str) -> NotFound:
    return NotFound(f"No asset with id {asset_id!r}.", code="asset_not_found")


# `assets.get` finds an asset by a former id too; writes resolve it first.
KIND = versioned.Kind("assets.get", "assets.lock", from_node, _not_found, identity.resolve)


async def get(graph: Graph, asset_id: str) -> Asset:
    return await versioned.get(graph, KIND, asset_id)


def _filters(where: AssetFilter) -> dict[str, Any]:
    return {
        "type": where.type,
        "platform": where.platform,
        "owner": where.owner,
        "tags": [t.lower() for t in where.tags],
        "placeholder": where.placeholder,
        "q": where.q.lower() if where.q else None,
        "dataset_namespace": where.dataset_namespace,
        "dataset_key": where.dataset_key,
        "domain": where.domain,
        "readable": list(where.readable) if where.readable is not None else None,
    }


async def page(graph: Graph, where: AssetFilter, after: str, limit: int) -> list[Asset]:
    """Assets in id order after `after`; a `q` takes its candidates from the
    full-text index when it can (same set as the scan, see `text_search`)."""
    lucene = text_search.lucene_query(where.q) if where.q else None
    name = "assets.list_text" if lucene else "assets.list"
    rows = await graph.read(name, after=after, limit=limit, lucene=lucene, **_filters(where))
    return [from_node(r["asset"]) for r in rows]


@dataclass(frozen=True)
class Ranked:
    asset: Asset
    rank: float


async def search(
    graph: Graph, where: AssetFilter, after: tuple[float, str] | None, limit: int
) -> list[Ranked]:
    """Assets matching `where.q`, best first, after the cursor's (rank, id)."""
    if not where.q:
        raise ValueError("search needs a q")
    lucene = text_search.lucene_query(where.q)
    rows = await graph.read(
        "assets.search" if lucene else "assets.search_scan",
        lucene=lucene,
        limit=limit,
        after_rank=after[0] if after else None,
        after_id=after[1] if after else None,
        **_filters(where),
    )
    return [Ranked(from_node(r["asset"]), float(r["rank"])) for r in rows]


def _wanted(
    asset_id: str, fields: AssetFields, current: dict[str, Any], rules: DomainRules
) -> dict[str, Any]:
    """The node's properties for `fields`, with what merges made of it kept and the
    domain its rules place it in."""
    props = node_properties(asset_id, fields)
    props.update({k: current[k] for k in IDENTITY if current.get(k)})
    return asset_domains.placed(props, rules)


def _stamped(
    asset_id: str, fields: AssetFields, current: dict[str, Any], now: str, rules: DomainRules
) -> dict[str, Any]:
    props = _wanted(asset_id, fields, current, rules)
    props["created_at"] = current.get("created_at") or now
    props["updated_at"] = now
    props["version"] = int(current.get("version") or 0) + 1
    return props


def _unchanged(current: dict[str, Any], wanted: dict[str, Any]) -> bool:
    skip = {"created_at", "updated_at", "version"}
    return {k: v for k, v in current.items() if k not in skip} == wanted


async def _replace(tx: Tx, asset_id: str, props: dict[str, Any]) -> Asset:
    rows = await tx.run("assets.replace", id=asset_id, props=props)
    return from_node(rows[0]["asset"])


async def _take_dataset(
    tx: Tx, asset_id: str, fields: AssetFields, current: dict[str, Any], actor: str
) -> tuple[AssetFields, dict[str, Any]]:
    """Before `asset_id` holds its dataset: the placeholder (or other weak holder) that
    holds it now is merged into it, its owners and tags joining those of `fields`; an
    asset created explicitly holding it is a 409 `dataset_taken`."""
    if fields.dataset is None:
        return fields, current
    ref = dataset_ref(fields.dataset)
    holder = (await identity.holders(tx, [ref.key])).get(ref.key)
    if holder is None or holder.id == asset_id:
        return fields, current
    if not holder.weak:
        raise identity.taken(ref, holder.id)
    merged = (await identity.merge_into(tx, holder.id, asset_id, actor)).into
    joined = fields.model_copy(
        update={
            "owners": list(dict.fromkeys([*fields.owners, *merged.get("owners", [])])),
            "tags": list(dict.fromkeys([*fields.tags, *merged.get("tags", [])])),
        }
    )
    return joined, merged


async def create(graph: Graph, asset_id: str, fields: AssetFields, actor: str) -> Asset:
    """A new asset, or a placeholder claimed (it keeps its edges); else 409. An id that
    is an alias names its asset, which exists: 409 too."""

    async def work(tx: Tx) -> Asset:
        now = clock.now_iso()
        current_id = await identity.resolve(tx, asset_id)
        if current_id != asset_id:
            raise Conflict(
                f"{asset_id!r} is a former id of the asset {current_id!r}.", code="already_exists"
            )
        current = (await tx.run("assets.lock_or_create", id=asset_id, now=now))[0]["asset"]
        if not current.get("placeholder"):
            raise Conflict(f"An asset with id {asset_id!r} already exists.", code="already_exists")
        written, current = await _take_dataset(tx, asset_id, fields, current, actor)
        rules = await asset_domains.current(tx)
        asset = await _replace(tx, asset_id, _stamped(asset_id, written, current, now, rules))
        await column_tags.sync_declared(tx, asset_id, asset.columns, actor)
        emit(tx, "asset.created", asset, actor)
        asset_versions.record(tx, [asset_id], now, actor)
        return asset

    return await graph.write_tx(work)


async def upsert(
    graph: Graph, asset_id: str, fields: AssetFields, expected: Expected | None, actor: str
) -> tuple[Asset, bool]:
    """PUT: (asset, created). Created means the id held no real asset before."""

    async def work(tx: Tx) -> tuple[Asset, bool]:
        now = clock.now_iso()
        target = await identity.resolve(tx, asset_id)
        current = (await tx.run("assets.lock_or_create", id=target, now=now))[0]["asset"]
        is_new = int(current["version"]) == 0
        if expected is not None and not expected.holds(None if is_new else int(current["version"])):
            raise PreconditionFailed("If-Match does not match the asset's current version.")
        rules = await asset_domains.current(tx)
        if not is_new and _unchanged(current, _wanted(target, fields, current, rules)):
            return from_node(current), False
        created = bool(current.get("placeholder"))
        written, current = await _take_dataset(tx, target, fields, current, actor)
        asset = await _replace(tx, target, _stamped(target, written, current, now, rules))
        await column_tags.sync_declared(tx, target, asset.columns, actor)
        emit(tx, "asset.created" if created else "asset.updated", asset, actor)
        asset_versions.record(tx, [target], now, actor)
        return asset, created

    return await graph.write_tx(work)


async def patch(
    graph: Graph, asset_id: str, document: dict[str, Any], expected: Expected | None, actor: str
) -> Asset:
    """JSON Merge Patch applied to the current asset, then validated as a whole. The
    patch may repeat the id as read, but not change it."""
    if "id" in document and document["id"] != asset_id:
        raise validation_error(("body", "id"), "id cannot change")

    async def change(tx: Tx, current: dict[str, Any], fields: AssetFields) -> Asset:
        target = current["id"]
        rules = await asset_domains.current(tx)
        if _unchanged(current, _wanted(target, fields, current, rules)):
            return from_node(current)
        written, current = await _take_dataset(tx, target, fields, current, actor)
        now = clock.now_iso()
        asset = await _replace(tx, target, _stamped(target, written, current, now, rules))
        await column_tags.sync_declared(tx, target, asset.columns, actor)
        emit(tx, "asset.created" if current.get("placeholder") else "asset.updated", asset, actor)
        asset_versions.record(tx, [target], now, actor)
        return asset

    rest = {k: v for k, v in document.items() if k != "id"}
    return await versioned.patch(
        graph, KIND, asset_id, rest, expected, writable_document, AssetFields, change
    )


async def delete(graph: Graph, asset_id: str, expected: Expected | None, actor: str) -> None:
    async def change(tx: Tx, current: dict[str, Any]) -> None:
        target = current["id"]
        hides_in = (current["domain"],) if current.get("domain_private") else ()
        rules = await quality.delete_for_asset(tx, target, actor, hides_in)
        passed_on = await column_tags.before_asset_delete(tx, target)
        await lineage.delete_asset_columns(tx, target)
        named = ((target, current["domain"]),) if hides_in else ()
        await column_tags.after_asset_delete(tx, passed_on, actor, named)
        await tx.run("assets.delete", id=target)
        await history.record_assets(tx, [target], clock.now_iso())
        gone = {"id": target, **({"quality_rules_deleted": rules} if rules else {})}
        emit(tx, "asset.deleted", gone, actor, hides_in=hides_in)
        asset_versions.record(tx, [target], clock.now_iso(), actor)

    await versioned.write(graph, KIND, asset_id, expected, change)
