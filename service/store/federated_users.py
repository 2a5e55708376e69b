"""Users who sign in through the OpenID provider, over `cypher/users/`.

The first sign-in of a provider identity makes its user, with no password; each later
one finds the user by that identity and sets the role the groups claim now gives.
Either way the user's memberships of teams that list `idp_groups` follow the claim.
Both happen under the users' directory lock, as every other change of a user does, so
a demotion here cannot leave no enabled admin.
"""

from __future__ import annotations

from typing import Any

from neo4j.exceptions import ConstraintError

from service import clock
from service.domain.access.sso import Identity
from service.errors import Conflict, Forbidden
from service.graph import Graph, Tx
from service.ids import new_id
from service.models.users import User
from service.store import audit, teams
from service.store.users import ADMIN, login_key

ACTOR = "sso"  # the actor of what a sign-in through the provider changes


async def sign_in(graph: Graph, who: Identity, role: str) -> User:
    """The enabled user for this identity, made or brought to `role`.

    Forbidden for a disabled user; Conflict when a new user's username is taken by an
    account not linked to this identity, or when the last enabled admin would lose
    that role."""

    async def work(tx: Tx) -> User:
        await tx.run("users.lock_directory", now=clock.now_iso())
        rows = await tx.run("users.by_link", link_key=who.link_key)
        if not rows:
            user = await _create(tx, who, role)
        else:
            user = User(**rows[0]["user"])
            if user.disabled:
                raise Forbidden("This account is disabled.", code="user_disabled")
            user = await _update(tx, user, who, role)
        await teams.sync_groups(tx, user.id, who.groups)
        return user

    try:
        return await graph.write_tx(work)
    except ConstraintError as exc:
        raise Conflict(
            f"The username {who.username!r} is taken by an account not linked to this "
            "provider: an admin must rename or remove it first.",
            code="already_exists",
        ) from exc


async def _create(tx: Tx, who: Identity, role: str) -> User:
    now = clock.now_iso()
    props: dict[str, Any] = {
        "id": new_id("usr"),
        "username": who.username,
        "login_key": login_key(who.username),
        "link_key": who.link_key,
        "role": role,
        "disabled": False,
        "created_at": now,
        "updated_at": now,
    }
    if who.display_name is not None:
        props["display_name"] = who.display_name
    rows = await tx.run("users.create", props=props)
    user = User(**rows[0]["user"])
    audit.record(tx, "user.created", _audited(user, who), ACTOR)
    return user


async def _update(tx: Tx, user: User, who: Identity, role: str) -> User:
    changes: dict[str, Any] = {}
    if user.role != role:
        changes["role"] = role
    if who.display_name is not None and user.display_name != who.display_name:
        changes["display_name"] = who.display_name
    if not changes:
        return user
    if user.role == ADMIN and "role" in changes:
        admins = await tx.run("users.enabled_admins")
        if int(admins[0]["admins"]) <= 1:
            raise Conflict(
                "The provider no longer makes you an admin, and you are the last enabled "
                "admin: another admin must exist first.",
                code="last_admin",
            )
    changes["updated_at"] = clock.now_iso()
    rows = await tx.run("users.update", id=user.id, changes=changes)
    updated = User(**rows[0]["user"])
    audit.record(tx, "user.updated", _audited(updated, who, changed=sorted(changes)), ACTOR)
    return updated


def _audited(user: User, who: Identity, **extra: Any) -> dict[str, Any]:
    return {
        "id": user.id,
        "username": user.username,
        "role": user.role,
        "disabled": user.disabled,
        "issuer": who.issuer,
        **extra,
    }


async def linked(graph: Graph, user_id: str) -> bool:
    rows = await graph.read("users.linked", id=user_id)
    return bool(rows and rows[0]["linked"])
