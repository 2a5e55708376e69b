"""Dashboard sessions over `cypher/sessions/`, kept in Neo4j so any process serves them."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from service import clock
from service.domain.access import domain_rules
from service.domain.access import sessions as rules
from service.domain.access.principal import Principal
from service.domain.access.scopes import ROLE_SCOPE
from service.graph import Graph, Tx
from service.models.users import User


@dataclass(frozen=True)
class Session:
    secret: str
    csrf: str
    user: User
    domain_roles: Mapping[str, str] = field(default_factory=dict)
    teams: tuple[str, ...] = ()

    @property
    def principal(self) -> Principal:
        """The signed-in user as the per-domain rules see a caller: their role, their
        roles in domains, and the scope the best of those allows."""
        best = domain_rules.best_role_anywhere(self.user.role, self.domain_roles)
        return Principal(
            token_id=f"session:{self.user.id}",
            name=self.user.username,
            scope=ROLE_SCOPE[best],
            user_id=self.user.id,
            role=self.user.role,
            domain_roles=self.domain_roles,
            teams=self.teams,
        )


async def start(graph: Graph, user: User) -> Session:
    """A new session (a new id at every sign-in, so a planted cookie is worthless)."""
    secret = rules.new_secret()
    csrf = secrets.token_urlsafe(32)
    now = clock.now()
    props = {
        "hash": rules.digest(secret),
        "user_id": user.id,
        "csrf": csrf,
        "created_at": clock.format_time(now),
        "last_seen_at": clock.format_time(now),
        "expires_at": clock.format_time(now + rules.ABSOLUTE_TIMEOUT),
    }

    async def work(tx: Tx) -> None:
        await tx.run("sessions.create", props=props)
        await tx.run("users.signed_in", id=user.id, now=props["created_at"])

    await graph.write_tx(work)
    return Session(secret, csrf, user)


async def resume(graph: Graph, secret: str) -> Session | None:
    """The live session for a cookie value, or None (unknown, expired, user disabled)."""
    hashed = rules.digest(secret)
    rows = await graph.read("sessions.lookup", hash=hashed)
    if not rows:
        return None
    stored, user = rows[0]["session"], User(**rows[0]["user"])
    now = clock.now()
    limits = rules.expiry(now)
    over = stored["expires_at"] <= clock.format_time(now) or stored[
        "last_seen_at"
    ] <= clock.format_time(limits.idle_before)
    if over or user.disabled:
        await graph.write("sessions.delete", hash=hashed)
        return None
    if stored["last_seen_at"] < clock.format_time(limits.touch_before):
        await graph.write(
            "sessions.touch",
            hash=hashed,
            now=clock.format_time(now),
            stale_before=clock.format_time(limits.touch_before),
        )
    grants = domain_rules.best_roles((g[0], g[1]) for g in rows[0]["grants"])
    return Session(secret, stored["csrf"], user, grants, tuple(rows[0]["teams"]))


async def end(graph: Graph, secret: str) -> None:
    await graph.write("sessions.delete", hash=rules.digest(secret))


async def purge(graph: Graph) -> int:
    now = clock.now()
    rows = await graph.write(
        "sessions.purge",
        now=clock.format_time(now),
        idle_before=clock.format_time(rules.expiry(now).idle_before),
    )
    return int(rows[0]["removed"]) if rows else 0
