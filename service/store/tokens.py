"""API token records over `cypher/tokens/`. Only the SHA-256 of a secret is stored."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from service import clock
from service.domain.access import domain_rules
from service.domain.access import tokens as token_format
from service.domain.access.principal import Principal, access_of
from service.domain.access.scopes import ROLE_SCOPE, Scope, highest
from service.errors import NotFound
from service.graph import Graph, Tx
from service.ids import new_id
from service.models.tokens import Token, TokenCreate, TokenCreated
from service.store import audit
from service.store.outbox import emit

TOUCH_INTERVAL = timedelta(seconds=60)
NO_ROLES: Mapping[str, str] = {}


def _not_found(token_id: str) -> NotFound:
    return NotFound(f"No token with id {token_id!r}.", code="token_not_found")


async def create(
    graph: Graph, request: TokenCreate, created_by: str, user_id: str | None = None
) -> TokenCreated:
    """A new token; `user_id` ties it to a user whose current role caps its scopes."""
    secret = token_format.generate()
    now = clock.now()
    props: dict[str, Any] = {
        "id": new_id("tok"),
        "name": request.name,
        "scopes": list(request.scopes),
        "hash": token_format.digest(secret),
        "prefix": token_format.display_prefix(secret),
        "created_at": clock.format_time(now),
        "created_by": created_by,
        "user_id": user_id,
    }
    if request.expires_in_days is not None:
        props["expires_at"] = clock.format_time(now + timedelta(days=request.expires_in_days))

    async def work(tx: Tx) -> TokenCreated:
        rows = await tx.run("tokens.create", props=props)
        made = TokenCreated(**rows[0]["token"], token=secret)
        emit(tx, "token.created", Token(**rows[0]["token"]), created_by, owner=user_id)
        audit.record(tx, "token.created", _audited(made), created_by)
        return made

    return await graph.write_tx(work)


async def best_role(graph: Graph, user_id: str, role: str) -> str:
    """The strongest of a user's global `role` and their roles in domains: what caps the
    scopes of a token made for them, as it caps the token's use."""
    rows = await graph.read("tokens.user_grants", user_id=user_id)
    grants = domain_rules.best_roles((r["domain"], r["role"]) for r in rows)
    return domain_rules.best_role_anywhere(role, grants)


async def authenticate(graph: Graph, secret: str) -> tuple[Principal, bool] | None:
    """(principal, whether its last use is stale), or None if unknown, expired or revoked."""
    hashed = token_format.digest(secret)
    rows = await graph.read("tokens.by_hash", hash=hashed)
    if not rows:
        return None
    record = rows[0]["token"]
    if not hmac.compare_digest(record["hash"], hashed):
        return None
    principal = _principal(rows[0])
    if principal is None:
        return None
    stale = clock.format_time(clock.now() - TOUCH_INTERVAL)
    last_used = record.get("last_used_at")
    return principal, last_used is None or last_used < stale


async def standing(graph: Graph, token_id: str) -> Principal | None:
    """The token's caller as it is now (an open event stream asks whether its reader is
    still an admin, and which private domains it may read), or None when it no longer
    authenticates."""
    rows = await graph.read("tokens.standing", id=token_id)
    return _principal(rows[0]) if rows else None


def _principal(row: Mapping[str, Any]) -> Principal | None:
    """The caller a token row (token, user, grants, teams) stands for now; None for a
    revoked or expired token, or one whose user was deleted or disabled."""
    record, user = row["token"], row["user"]
    grants = [(str(g[0]), str(g[1])) for g in row["grants"]]
    domain_roles = domain_rules.best_roles(grants)
    scope = _current_scope(record, user, domain_roles)
    if scope is None:
        return None
    return Principal(
        token_id=record["id"],
        name=record["name"],
        scope=scope,
        user_id=record.get("user_id"),
        role=user["role"] if user else scope_role(scope),
        domain_roles=domain_roles,
        teams=tuple(row["teams"]),
        access=access_of(user["role"] if user else None, grants),
    )


def _current_scope(
    token: dict[str, Any], user: dict[str, Any] | None, domain_roles: Mapping[str, str] = NO_ROLES
) -> Scope | None:
    """None for a revoked or expired token, else its effective scope."""
    expires_at = token.get("expires_at")
    if token.get("revoked_at") or (expires_at and expires_at <= clock.now_iso()):
        return None
    return _effective_scope(token, user, domain_roles)


def _effective_scope(
    token: dict[str, Any], user: dict[str, Any] | None, domain_roles: Mapping[str, str]
) -> Scope | None:
    """The token's strongest scope, capped by its user's best role as it is now (global,
    or in any domain: `domain_roles`); None when its user was deleted or disabled."""
    scope = highest(token["scopes"])
    if scope is None or token.get("user_id") is None:
        return scope
    if user is None or user["disabled"]:
        return None
    return min(scope, ROLE_SCOPE[domain_rules.best_role_anywhere(user["role"], domain_roles)])


def scope_role(scope: Scope) -> str:
    """The global role a token without a user acts as: the one its scope names."""
    return next(role for role, given in ROLE_SCOPE.items() if given == scope)


async def touch(graph: Graph, token_id: str) -> None:
    now = clock.now()
    await graph.write(
        "tokens.touch",
        id=token_id,
        now=clock.format_time(now),
        stale_before=clock.format_time(now - TOUCH_INTERVAL),
    )


async def page(graph: Graph, after: str, limit: int) -> list[Token]:
    rows = await graph.read("tokens.list", after=after, limit=limit)
    return [Token(**r["token"]) for r in rows]


@dataclass(frozen=True)
class OwnedToken:
    token: Token
    owner: str | None


async def newest(graph: Graph, user_id: str | None, limit: int) -> list[OwnedToken]:
    """The newest tokens of one user, or of everyone when `user_id` is None."""
    rows = await graph.read("tokens.list_owned", user_id=user_id, limit=limit)
    return [OwnedToken(Token(**r["token"]), r["owner"]) for r in rows]


async def get(graph: Graph, token_id: str) -> Token:
    rows = await graph.read("tokens.get", id=token_id)
    if not rows:
        raise _not_found(token_id)
    return Token(**rows[0]["token"])


async def revoke(graph: Graph, token_id: str, actor: str) -> Token:
    async def work(tx: Tx) -> Token:
        rows = await tx.run("tokens.revoke", id=token_id, now=clock.now_iso())
        if not rows:
            raise _not_found(token_id)
        token = Token(**rows[0]["token"])
        if rows[0]["newly"]:
            emit(tx, "token.revoked", token, actor, owner=token.user_id)
            audit.record(tx, "token.revoked", _audited(token), actor)
        return token

    return await graph.write_tx(work)


def _audited(token: Token) -> dict[str, Any]:
    """What the audit trail keeps of a token: never its secret or hash."""
    return {
        "id": token.id,
        "name": token.name,
        "scopes": list(token.scopes),
        "user_id": token.user_id,
        "expires_at": token.expires_at,
    }
