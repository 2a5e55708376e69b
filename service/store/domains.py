"""Domains over `cypher/domains/`: rules choosing assets, an owning team, team grants.

A change is committed first (with a new rules stamp), then the assets are placed
again by `domain_placement.reevaluate`, in batches, each under the rules current then.
"""

from __future__ import annotations

from typing import Any

import orjson

from service import clock
from service.errors import FieldError, NotFound, Unprocessable
from service.graph import Graph, Tx
from service.models.domains import Domain, DomainPut
from service.store import domain_placement
from service.store.outbox import emit


def not_found(domain_id: str) -> NotFound:
    return NotFound(f"No domain with id {domain_id!r}.", code="domain_not_found")


def from_row(row: dict[str, Any]) -> Domain:
    rules = orjson.loads(row.pop("rules_json") or "[]")
    return Domain(**row, rules=rules)


def _grants(body: DomainPut) -> list[dict[str, Any]]:
    """The GRANTED edges to write: the owner team's admin grant (marked `owner`), then
    each other team's best role (a grant to the owner adds nothing and is not kept)."""
    rank = {"viewer": 0, "editor": 1, "admin": 2}
    best: dict[str, str] = {}
    for grant in body.grants:
        if (
            grant.team != body.owner_team
            and rank[grant.role] >= rank[best.get(grant.team, "viewer")]
        ):
            best[grant.team] = grant.role
    owner = {"team": body.owner_team, "role": "admin", "owner": True}
    return [owner, *({"team": t, "role": r, "owner": None} for t, r in sorted(best.items()))]


async def _check_teams(tx: Tx, body: DomainPut) -> None:
    """422 naming each field that names a team that does not exist."""
    named = [(("body", "owner_team"), body.owner_team)] + [
        (("body", "grants", i, "team"), g.team) for i, g in enumerate(body.grants)
    ]
    found = set((await tx.run("domains.lock_teams", teams=[t for _, t in named]))[0]["found"])
    errors = [
        FieldError(loc, f"no team with id {t!r}", "unknown_team")
        for loc, t in named
        if t not in found
    ]
    if errors:
        raise Unprocessable(
            "Unknown team: " + errors[0].msg + ".", code="unknown_team", errors=errors
        )


async def _get(tx: Tx, domain_id: str) -> Domain:
    return from_row(dict((await tx.run("domains.get", id=domain_id))[0]["domain"]))


async def put(graph: Graph, domain_id: str, body: DomainPut, actor: str) -> tuple[Domain, bool]:
    """Create or replace a domain, then place the assets again: (domain, created)."""

    async def work(tx: Tx) -> bool:
        await _check_teams(tx, body)
        rules = [r.model_dump() for r in dict.fromkeys(body.rules)]
        rows = await tx.run(
            "domains.put",
            id=domain_id,
            display_name=body.display_name,
            description=body.description,
            private=body.private,
            owner_team=body.owner_team,
            rules_json=orjson.dumps(rules).decode(),
            grants=_grants(body),
            now=clock.now_iso(),
        )
        created = bool(rows[0]["created"])
        domain = await _get(tx, domain_id)
        emit(tx, "domain.created" if created else "domain.updated", domain, actor)
        return created

    created = await graph.write_tx(work)
    await domain_placement.reevaluate(graph, domain_id, actor)
    return await get(graph, domain_id), created


async def find(graph: Graph, domain_id: str) -> Domain | None:
    rows = await graph.read("domains.get", id=domain_id)
    return from_row(dict(rows[0]["domain"])) if rows else None


async def get(graph: Graph, domain_id: str) -> Domain:
    domain = await find(graph, domain_id)
    if domain is None:
        raise not_found(domain_id)
    return domain


async def all_domains(graph: Graph) -> list[Domain]:
    return [from_row(dict(r["domain"])) for r in await graph.read("domains.list")]


async def delete(graph: Graph, domain_id: str, actor: str) -> None:
    """The domain goes; its assets are placed again (in another domain or none)."""

    async def work(tx: Tx) -> tuple[str, ...]:
        row = (await tx.run("domains.delete", id=domain_id))[0]
        if not row["found"]:
            raise not_found(domain_id)
        hides_in = (domain_id,) if row["private"] else ()
        emit(tx, "domain.deleted", {"id": domain_id}, actor, hides_in=hides_in)
        return hides_in

    hides_in = await graph.write_tx(work)
    await domain_placement.reevaluate(graph, domain_id, actor, hides_in)
