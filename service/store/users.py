"""Users over `cypher/users/`: accounts for the dashboard whose role caps their tokens.

Every change of an existing user takes one directory lock first, then reads the
user and (for a demotion, disabling or deletion of an admin) counts the enabled
admins: two concurrent demotions cannot both see two admins and leave none.
"""

from __future__ import annotations

import asyncio
from typing import Any

from neo4j.exceptions import ConstraintError

from service import clock
from service.domain.access import passwords
from service.domain.access.password_rules import password_problem
from service.errors import Conflict, NotFound, weak_password
from service.graph import Graph, Tx
from service.ids import new_id
from service.models.users import User, UserCreate, UserPatch
from service.store import audit

ADMIN = "admin"
SYSTEM = "system"  # the actor of what the service does by itself (the first admin)


def _not_found(user_id: str) -> NotFound:
    return NotFound(f"No user with id {user_id!r}.", code="user_not_found")


def login_key(username: str) -> str:
    return username.lower()


def _check_password(password: str, username: str) -> None:
    problem = password_problem(password, username)
    if problem:
        raise weak_password(problem)


async def create(graph: Graph, request: UserCreate, *, actor: str) -> User:
    _check_password(request.password, request.username)
    password_hash = await asyncio.to_thread(passwords.hash_password, request.password)
    now = clock.now_iso()
    props: dict[str, Any] = {
        "id": new_id("usr"),
        "username": request.username,
        "login_key": login_key(request.username),
        "role": request.role,
        "disabled": False,
        "password_hash": password_hash,
        "created_at": now,
        "updated_at": now,
    }
    if request.display_name is not None:
        props["display_name"] = request.display_name

    async def work(tx: Tx) -> User:
        rows = await tx.run("users.create", props=props)
        user = User(**rows[0]["user"])
        audit.record(tx, "user.created", _audited(user), actor)
        return user

    try:
        return await graph.write_tx(work)
    except ConstraintError as exc:
        raise _taken(request.username) from exc


def _audited(user: User, **extra: Any) -> dict[str, Any]:
    """What the audit trail keeps of a user: never a password or its hash."""
    return {
        "id": user.id,
        "username": user.username,
        "role": user.role,
        "disabled": user.disabled,
        **extra,
    }


def _taken(username: str) -> Conflict:
    return Conflict(f"The username {username!r} is taken.", code="already_exists")


async def find(graph: Graph, user_id: str) -> User | None:
    rows = await graph.read("users.get", id=user_id)
    return User(**rows[0]["user"]) if rows else None


async def get(graph: Graph, user_id: str) -> User:
    user = await find(graph, user_id)
    if user is None:
        raise _not_found(user_id)
    return user


async def page(graph: Graph, after: str, limit: int) -> list[User]:
    rows = await graph.read("users.list", after=after, limit=limit)
    return [User(**r["user"]) for r in rows]


async def any_user(graph: Graph) -> bool:
    rows = await graph.read("users.any")
    return bool(rows and rows[0]["exists"])


async def check_password(graph: Graph, username: str, password: str) -> User | None:
    """The enabled user with these credentials, or None; equally slow either way."""
    rows = await graph.read("users.credentials", login_key=login_key(username))
    stored = rows[0]["password_hash"] if rows else None
    if not await asyncio.to_thread(passwords.verify, stored, password):
        return None
    user = User(**rows[0]["user"])
    if user.disabled:
        return None
    if stored is not None and passwords.needs_rehash(stored):
        # Only now is the password at hand to hash again with today's parameters.
        renewed = await asyncio.to_thread(passwords.hash_password, password)
        await graph.write("users.rehash", id=user.id, old_hash=stored, new_hash=renewed)
    return user


def _removes_admin(current: User, patch: UserPatch | None) -> bool:
    """Whether the change takes an enabled admin away (None: the user is deleted)."""
    if current.role != ADMIN or current.disabled:
        return False
    if patch is None:
        return True
    return (patch.role not in (None, ADMIN)) or patch.disabled is True


async def _guard_last_admin(tx: Tx, current: User, patch: UserPatch | None) -> None:
    """Call after `users.lock_directory`, so the count is not stale."""
    if not _removes_admin(current, patch):
        return
    rows = await tx.run("users.enabled_admins")
    if int(rows[0]["admins"]) <= 1:
        raise Conflict(
            "This is the last enabled admin: make another admin first.", code="last_admin"
        )


async def _current(tx: Tx, user_id: str) -> User:
    rows = await tx.run("users.get", id=user_id)
    if not rows:
        raise _not_found(user_id)
    return User(**rows[0]["user"])


async def update(
    graph: Graph, user_id: str, patch: UserPatch, clear: frozenset[str], *, actor: str
) -> User:
    """Apply a merge patch; `clear` names fields the patch set to null (display_name)."""
    changes: dict[str, Any] = patch.model_dump(exclude_none=True, exclude={"password"})
    changes.update({name: None for name in clear})
    if patch.password is not None:
        _check_password(patch.password, (await get(graph, user_id)).username)
        changes["password_hash"] = await asyncio.to_thread(passwords.hash_password, patch.password)
    ends_sessions = patch.password is not None or patch.disabled is True
    # The names of what changed ("password" for a reset), never the values.
    changed = sorted({*patch.model_dump(exclude_none=True), *clear})

    async def work(tx: Tx) -> User:
        await tx.run("users.lock_directory", now=clock.now_iso())
        current = await _current(tx, user_id)
        await _guard_last_admin(tx, current, patch)
        rows = await tx.run(
            "users.update", id=user_id, changes={**changes, "updated_at": clock.now_iso()}
        )
        if ends_sessions:
            await tx.run("sessions.delete_for_user", user_id=user_id)
        user = User(**rows[0]["user"])
        audit.record(tx, "user.updated", _audited(user, changed=changed), actor)
        return user

    return await graph.write_tx(work)


async def delete(graph: Graph, user_id: str, *, actor: str) -> None:
    async def work(tx: Tx) -> None:
        await tx.run("users.lock_directory", now=clock.now_iso())
        current = await _current(tx, user_id)
        await _guard_last_admin(tx, current, None)
        await tx.run("sessions.delete_for_user", user_id=user_id)
        await tx.run("users.delete", id=user_id)
        audit.record(tx, "user.deleted", _audited(current), actor)

    await graph.write_tx(work)


async def find_by_username(graph: Graph, username: str) -> User | None:
    rows = await graph.read("users.credentials", login_key=login_key(username))
    return User(**rows[0]["user"]) if rows else None


async def ensure_first_admin(graph: Graph, username: str, password: str) -> User | None:
    """Create the first admin when no user exists; None when users exist already (or
    another process made the first one a moment ago)."""
    if await any_user(graph):
        return None
    try:
        first = UserCreate(username=username, password=password, role="admin")
        return await create(graph, first, actor=SYSTEM)
    except Conflict:
        return None
