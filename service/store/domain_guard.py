"""Per-domain checks before a write and before a read, over `cypher/access/`.

One statement per request (a whole batch at once), read before the write begins, so a
refused request writes nothing. Global admins skip it: nothing is refused to them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from service.domain.access import domain_rules
from service.domain.access.domain_checks import (
    Held,
    Placed,
    claims,
    claims_forbidden,
    forbidden,
    moved_into,
    refused,
)
from service.domain.access.principal import Principal
from service.domain.assets import from_node, patched, placing
from service.domain.datasets import DatasetRef
from service.domain.domains import DBT_PROJECT_PROPERTY, DomainRules, Rule, domain_for
from service.domain.lineage import DATASET_MARK
from service.errors import NotFound
from service.graph import Graph
from service.models.assets import AssetFields
from service.store import asset_domains, identity

SCAN_BATCH = 5_000  # assets read per round trip when a domain's new rules are checked


async def placed(graph: Graph, ids: Iterable[str]) -> dict[str, Placed]:
    """Each existing asset's domain among `ids` (a former id answers for its asset)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await graph.read("access.asset_domains", ids=wanted)
    return {r["id"]: Placed(r["domain"], bool(r["private"])) for r in rows}


async def placed_if_domains(graph: Graph, ids: Iterable[str]) -> dict[str, Placed]:
    """`placed` for reads that only look for hidden assets: nothing (one index seek)
    while no domain exists, the everyday path of a graph that uses none."""
    return await placed(graph, ids) if await _any_domain(graph) else {}


async def require_writable(
    graph: Graph,
    principal: Principal,
    writes: Iterable[str],
    reads: Iterable[str] = (),
    new_fields: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """403 `domain_forbidden` listing the assets among `writes` the caller may not write
    and among `reads` (an edge's sources) it may not read; nothing when all are allowed.
    An asset the write would create is placed by the domains' rules, from its id (or
    the node properties `new_fields` gives for it: its tags and dbt project); an
    existing one `new_fields` gives is refused too when those would move it into a
    domain where the caller may not write (`domain_checks.moved_into`)."""
    if domain_rules.sees_everything(principal):
        return
    await _require(graph, principal, list(writes), list(reads), new_fields or {})


async def require_held_writable(graph: Graph, principal: Principal, ids: Iterable[str]) -> None:
    """`require_writable` for writes that name existing assets without making any (a
    quality rule's asset): an id naming no asset is left to the write's own 422."""
    if domain_rules.sees_everything(principal):
        return
    wanted = sorted(set(ids))
    if not await _any_domain(graph):
        listed = refused(principal, wanted, [], {})
    else:
        found = await placed(graph, wanted)
        held = [i for i in wanted if i in found]
        listed = refused(principal, held, [], found, found_by_service=True)
    if listed:
        raise forbidden(listed)


async def require_writable_if_held(graph: Graph, principal: Principal, asset_id: str) -> None:
    """`require_writable` for a write that may create the asset (PUT), before its body
    is read: an existing asset is judged by its domain now; one the write would create
    is left to `require_placeable`, which places it by the fields written, as a POST's
    asset is placed (its id alone may not say where they put it)."""
    if domain_rules.sees_everything(principal):
        return
    any_domain = await _any_domain(graph)
    found = await placed(graph, [asset_id]) if any_domain else {}
    if any_domain and asset_id not in found:
        return
    listed = refused(principal, [asset_id], [], found)
    if listed:
        raise forbidden(listed)


async def require_rows_writable(
    graph: Graph,
    principal: Principal,
    datasets: Sequence[DatasetRef],
    rows: Iterable[Mapping[str, Any]],
    rewritten: Iterable[str] = (),
    dataset_ids: Mapping[str, str] | None = None,
) -> None:
    """`require_writable` for edge and column rows whose ends may be datasets
    (DATASET_MARK + key), as OpenLineage and SQL ingestion write them: each dataset is
    the asset holding it now, or the asset the write would make for it (`dataset_ids`
    by key, else `<namespace>/<name>`). Targets and `rewritten` ends are writes,
    sources reads."""
    if domain_rules.sees_everything(principal):
        return
    any_domain = await _any_domain(graph)
    keys = [ref.key for ref in datasets]
    held = (
        await graph.read_session(lambda reader: identity.holders(reader, keys))
        if keys and any_domain
        else {}
    )
    ids = {
        DATASET_MARK + ref.key: held[ref.key].id
        if ref.key in held
        else (dataset_ids or {}).get(ref.key, ref.default_id)
        for ref in datasets
    }
    listed = list(rows)
    writes = [ids.get(r["target"], r["target"]) for r in listed]
    writes += [ids.get(end, end) for end in rewritten]
    reads = [ids.get(r["source"], r["source"]) for r in listed]
    await _require(graph, principal, writes, reads, {}, any_domain)


async def _require(
    graph: Graph,
    principal: Principal,
    writes: list[str],
    reads: list[str],
    new_fields: Mapping[str, Mapping[str, Any]],
    any_domain: bool | None = None,
) -> None:
    if any_domain is None:
        any_domain = await _any_domain(graph)
    if not any_domain:  # every asset lies outside domains: the global role decides
        listed = refused(principal, writes, reads, {})
    else:
        found = await placed(graph, [*writes, *reads])
        created = sorted(set(writes) - set(found))
        moving = sorted(i for i in set(writes) & set(found) if i in new_fields)
        rules = await _rules(graph) if created or moving else DomainRules()
        new_domains = {i: _destination({"id": i, **new_fields.get(i, {})}, rules) for i in created}
        listed = refused(principal, writes, reads, found, new_domains)
        already = {i for i, _ in listed}
        listed += [
            move
            for i in moving
            if i not in already
            for move in moved_into(
                principal, i, _destination({"id": i, **new_fields[i]}, rules), (found[i].domain,)
            )
        ]
    if listed:
        raise forbidden(sorted(listed))


async def _any_domain(graph: Graph) -> bool:
    """Whether any domain exists (one index seek): until one does, every asset lies
    outside domains and the global role alone decides, so a write by a caller other
    than an admin reads no asset's domain first (the everyday path of a graph that
    uses no domains)."""
    rows = await graph.read("domains.stamp")
    return rows[0]["stamp"] is not None


async def _rules(graph: Graph) -> DomainRules:
    """The domains' rules as every write places its assets now."""
    return await graph.read_session(asset_domains.current)


def _destination(node: Mapping[str, Any], rules: DomainRules) -> Placed:
    domain = domain_for(node, rules)
    return Placed(domain, domain in rules.private)


async def require_placeable(
    graph: Graph, principal: Principal, asset_id: str, change: AssetFields | Mapping[str, Any]
) -> None:
    """403 `domain_forbidden` naming the destination when a write of `change` (the
    asset's fields, or a merge patch over them) would move the asset into a domain where
    the caller may not write: its rules are applied to the new fields, as a creation's
    are. Checked beside the asset's current domain (`require_writable`); a write that
    does not change where the rules place it is never refused for it. An asset the
    write would create is placed from its fields alone; a patch of a missing asset is
    left to the write's own 404."""
    if domain_rules.sees_everything(principal) or not await _any_domain(graph):
        return
    rows = await graph.read("assets.get", id=asset_id)  # a former id finds its asset
    current = from_node(rows[0]["asset"]) if rows else None
    if isinstance(change, AssetFields):
        after = change
    elif current is not None:
        after = patched(current, change)
    else:
        return
    target = current.id if current is not None else asset_id
    rules = await _rules(graph)
    unchanged = (current.domain, domain_for(placing(target, current), rules)) if current else ()
    listed = moved_into(principal, target, _destination(placing(target, after), rules), unchanged)
    if listed:
        raise forbidden(listed)


async def require_claimable(
    graph: Graph, principal: Principal, domain_id: str, rules: Sequence[Rule]
) -> None:
    """403 `domain_forbidden` naming each of `rules` (`rules[i]`) that would take assets
    into `domain_id` from another domain where the caller is not admin, or from outside
    every domain where its global role may not write (`domain_checks.claims`): read
    before the domain is written, so a refused replace changes nothing. Reads every
    asset, in batches, as the placing that follows a domain change does; global admins
    skip it."""
    if domain_rules.sees_everything(principal) or not rules:
        return
    proposed = await graph.read_session(
        lambda reader: asset_domains.proposed(reader, domain_id, rules)
    )
    taken: dict[int, list[Held]] = {}
    after = ""
    while True:
        rows = await graph.read("domains.scan_assets", after=after, limit=SCAN_BATCH)
        held = [_held(row) for row in rows]
        for index, found in claims(principal, domain_id, rules, proposed, held).items():
            taken.setdefault(index, []).extend(found)
        if len(rows) < SCAN_BATCH:
            break
        after = rows[-1]["id"]
    if taken:
        raise claims_forbidden(principal, taken)


def _held(row: Mapping[str, Any]) -> Held:
    node = {"id": row["id"], "tags": row["tags"], DBT_PROJECT_PROPERTY: row["dbt_project"]}
    return Held(node, Placed(row["domain"], bool(row["private"])))


async def require_readable(graph: Graph, principal: Principal, asset_id: str) -> None:
    """404 `asset_not_found`, as for an absent asset, when it lies in a private domain
    where the caller has no role."""
    if not await readable(graph, principal, asset_id):
        raise NotFound(f"No asset with id {asset_id!r}.", code="asset_not_found")


async def readable(graph: Graph, principal: Principal, asset_id: str) -> bool:
    """Whether the caller may see the asset (and what hangs on it: its quality rules):
    false only for an asset in a private domain where it has no role."""
    if domain_rules.sees_everything(principal):
        return True
    where = (await placed_if_domains(graph, [asset_id])).get(asset_id)
    return where is None or domain_rules.can_read(principal, where.domain, where.private)


async def owner_teams(graph: Graph, domains: Iterable[str]) -> dict[str, str]:
    """The owning team of each domain named, for redacted stand-ins."""
    wanted = sorted(set(domains))
    if not wanted:
        return {}
    rows = await graph.read("access.domain_teams", ids=wanted)
    return {r["id"]: r["team"] for r in rows}
