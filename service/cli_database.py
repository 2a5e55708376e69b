"""The `governance` commands that work straight on Neo4j: tokens and users for
bootstrapping and recovery, and the local development Neo4j. Without `NEO4J_URI`
they use (and start) the local one."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from service.cli_output import neo4j_unreachable
from service.settings import Settings

if TYPE_CHECKING:
    from service.graph import Graph
    from service.localdb import LocalNeo4j


def resolved_settings() -> Settings:
    """Settings from the environment; without NEO4J_URI, the local development Neo4j,
    and (unless GOVERNANCE_SECRET_KEY names one) the secret key kept in its folder."""
    settings = Settings.from_env()
    if settings.neo4j_uri:
        return settings
    from service.localdb.secret_key import load_or_create_key

    local = _local(settings)
    info = local.start()
    webhooks = settings.webhooks
    if not webhooks.secret_keys:
        key = load_or_create_key(local.layout.secret_key_file)
        webhooks = webhooks.model_copy(update={"secret_keys": (SecretStr(key),)})
    return settings.model_copy(
        update={
            "neo4j_uri": info.uri,
            "neo4j_username": info.username,
            "neo4j_password": SecretStr(info.password),
            "webhooks": webhooks,
        }
    )


def _local(settings: Settings) -> LocalNeo4j:
    """The local development Neo4j as these settings describe it."""
    from service.localdb import LocalNeo4j, default_cache_dir

    chosen = settings.local_neo4j
    return LocalNeo4j(
        default_cache_dir(),
        bolt_port=chosen.bolt_port,
        heap=chosen.heap,
        pagecache=chosen.pagecache,
    )


def token_create(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from service.models.tokens import TokenCreate
    from service.store import tokens

    try:
        request = TokenCreate(
            name=args.name, scopes=args.scope, expires_in_days=args.expires_in_days
        )
    except ValidationError as exc:  # a name with control or bidi characters
        raise ValueError(_first_problem(exc)) from exc

    async def create(graph: Graph) -> str:
        user_id = await _token_user(graph, args.user, request.scopes) if args.user else None
        made = await tokens.create(graph, request, created_by=_cli_actor(), user_id=user_id)
        return made.token

    print(on_database(create))
    return 0


async def _token_user(graph: Graph, username: str, scopes: Sequence[str]) -> str:
    """The id of the user a token is made for, once their best role anywhere (global or
    in a domain) allows every scope asked: the token then carries their roles, as one
    made in the dashboard does."""
    from service.domain.access.scopes import scopes_allowed
    from service.store import tokens, users

    user = await users.find_by_username(graph, username)
    if user is None:
        raise ValueError(f"no user named {username!r}")
    if user.disabled:
        raise ValueError(f"user {username!r} is disabled")
    best = await tokens.best_role(graph, user.id, user.role)
    beyond = [s for s in scopes if s not in scopes_allowed(best)]
    if beyond:
        raise ValueError(
            f"user {username!r} (best role {best}) cannot hold a token of scope {beyond[0]}"
        )
    return user.id


def _read_password(from_stdin: bool) -> str:
    """From standard input with --password-stdin (scripts), else asked twice on the terminal."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    import getpass

    first = getpass.getpass("Password: ")
    if getpass.getpass("Again: ") != first:
        raise ValueError("the two passwords differ")
    return first


def on_database(work: Callable[[Graph], Awaitable[str]]) -> str:
    """Run `work` against the configured (or local development) Neo4j, schema applied."""
    from neo4j.exceptions import ServiceUnavailable

    from service import cypher
    from service.graph import Graph

    settings = resolved_settings()
    uri = settings.neo4j_uri or ""

    async def run() -> str:
        graph = Graph.connect(settings, cypher.load(), uri)
        try:
            await graph.apply_schema()
            return await work(graph)
        finally:
            await graph.close()

    try:
        return asyncio.run(run())
    except ServiceUnavailable as exc:
        raise neo4j_unreachable(uri, exc) from exc


def user_create(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from service.errors import Conflict, Unprocessable
    from service.models.users import UserCreate
    from service.store import users

    try:
        request = UserCreate(
            username=args.username,
            password=_read_password(args.password_stdin),
            role=args.role,
            display_name=args.display_name,
        )
    except ValidationError as exc:
        raise ValueError(_first_problem(exc)) from exc

    async def create(graph: Graph) -> str:
        try:
            made = await users.create(graph, request, actor=_cli_actor())
        except (Conflict, Unprocessable) as exc:
            raise ValueError(exc.detail) from exc
        return f"created {made.username} ({made.role}), id {made.id}"

    print(on_database(create))
    return 0


def user_set_password(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from service.errors import Unprocessable
    from service.models.users import UserPatch
    from service.store import users

    try:
        patch = UserPatch(password=_read_password(args.password_stdin))
    except ValidationError as exc:
        raise ValueError(_first_problem(exc)) from exc

    async def set_password(graph: Graph) -> str:
        found = await users.find_by_username(graph, args.username)
        if found is None:
            raise ValueError(f"no user named {args.username!r}")
        try:
            await users.update(graph, found.id, patch, frozenset(), actor=_cli_actor())
        except Unprocessable as exc:
            raise ValueError(exc.detail) from exc
        return f"new password set for {found.username}; their sessions have ended"

    print(on_database(set_password))
    return 0


def _cli_actor() -> str:
    """Who the audit trail names for a command run on the server."""
    return f"cli:{os.getenv('USER', 'unknown')}"


def _first_problem(exc: Any) -> str:
    error = exc.errors(include_url=False)[0]
    return f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}"


def neo4j_start(args: argparse.Namespace) -> int:
    info = _local(Settings.from_env()).start()
    print(f"neo4j running at {info.uri} (user {info.username}; password in the instance folder)")
    return 0


def neo4j_stop(args: argparse.Namespace) -> int:
    _local(Settings.from_env()).stop()
    print("neo4j stopped")
    return 0


def neo4j_status(args: argparse.Namespace) -> int:
    status = _local(Settings.from_env()).status()
    state = f"running (pid {status.pid})" if status.running else "stopped"
    print(f"neo4j {state} at {status.uri}; home {status.home}")
    return 0 if status.running else 3
