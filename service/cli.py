"""The `governance` console command.

governance serve                       run the service (starts the local Neo4j if NEO4J_URI is unset)
governance token create --name N --scope S [--expires-in-days D]
governance user create --username U --role R [--password-stdin]
governance user set-password --username U [--password-stdin]
governance neo4j start|stop|status     the local development Neo4j
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from service.settings import Settings

if TYPE_CHECKING:
    from service.graph import Graph


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
    except (RuntimeError, ValueError) as exc:
        print(f"governance: {exc}", file=sys.stderr)
        return 1
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="governance", description="Data governance service")
    commands = parser.add_subparsers(title="commands")

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", help="default GOVERNANCE_HOST or 127.0.0.1")
    serve.add_argument("--port", type=int, help="default GOVERNANCE_PORT or 8080")
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(run=_serve)

    token_parser = commands.add_parser("token", help="API tokens")
    token = token_parser.add_subparsers(title="token commands")
    create = token.add_parser("create", help="create a token straight on the database, print it")
    create.add_argument("--name", required=True)
    create.add_argument(
        "--scope",
        action="append",
        choices=["read", "write", "admin"],
        required=True,
        help="repeatable; a higher scope includes the lower ones",
    )
    create.add_argument("--expires-in-days", type=int)
    create.set_defaults(run=_token_create)

    user = commands.add_parser("user", help="dashboard users (straight on the database)")
    user_commands = user.add_subparsers(title="user commands")
    user_create = user_commands.add_parser("create", help="create a user; asks for the password")
    user_create.add_argument("--username", required=True)
    user_create.add_argument("--role", required=True, choices=["viewer", "editor", "admin"])
    user_create.add_argument("--display-name")
    user_create.set_defaults(run=_user_create)
    set_password = user_commands.add_parser(
        "set-password", help="give a user a new password (ends their sessions); for recovery"
    )
    set_password.add_argument("--username", required=True)
    set_password.set_defaults(run=_user_set_password)
    for command in (user_create, set_password):
        command.add_argument(
            "--password-stdin", action="store_true", help="read the password from standard input"
        )
    user.set_defaults(run=lambda _: _help(user))
    token_parser.set_defaults(run=lambda _: _help(token_parser))

    ingest = commands.add_parser("ingest", help="send metadata to a running service")
    ingest_kinds = ingest.add_subparsers(title="ingest commands")
    manifest = ingest_kinds.add_parser("manifest", help="upload a dbt manifest.json (or .json.gz)")
    manifest.add_argument("path")
    manifest.add_argument(
        "--url",
        default=os.environ.get("GOVERNANCE_URL", "http://127.0.0.1:8080"),
        help="the service (default GOVERNANCE_URL or http://127.0.0.1:8080)",
    )
    manifest.add_argument(
        "--token",
        default=os.environ.get("GOVERNANCE_TOKEN"),
        help="an API token with scope write (default GOVERNANCE_TOKEN)",
    )
    manifest.add_argument("--project", help="default: the manifest's project name")
    manifest.add_argument(
        "--no-prune",
        action="store_true",
        help="keep edges and rules an earlier upload made that this one lacks",
    )
    manifest.set_defaults(run=_ingest_manifest)

    neo4j = commands.add_parser("neo4j", help="the local development Neo4j").add_subparsers(
        title="neo4j commands"
    )
    for name, run in (("start", _neo4j_start), ("stop", _neo4j_stop), ("status", _neo4j_status)):
        neo4j.add_parser(name).set_defaults(run=run)
    return parser


def resolved_settings() -> Settings:
    """Settings from the environment; without NEO4J_URI, the local development Neo4j."""
    settings = Settings.from_env()
    if settings.neo4j_uri:
        return settings
    from service.localdb import LocalNeo4j, default_cache_dir

    info = LocalNeo4j(default_cache_dir()).start()
    return settings.model_copy(
        update={
            "neo4j_uri": info.uri,
            "neo4j_username": info.username,
            "neo4j_password": SecretStr(info.password),
        }
    )


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from service.app import create_app

    settings = resolved_settings()
    host = args.host or settings.host
    port = args.port or settings.port
    print(
        f"governance: serving on http://{host}:{port}/api/v1 (Neo4j at {settings.neo4j_uri})",
        flush=True,
    )
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level="info",
        proxy_headers=False,
        server_header=False,
    )
    return 0


def _token_create(args: argparse.Namespace) -> int:
    from service.models.tokens import TokenCreate
    from service.store import tokens

    request = TokenCreate(name=args.name, scopes=args.scope, expires_in_days=args.expires_in_days)

    async def create(graph: Graph) -> str:
        made = await tokens.create(graph, request, created_by=f"cli:{os.getenv('USER', 'unknown')}")
        return made.token

    print(_on_database(create))
    return 0


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _read_password(from_stdin: bool) -> str:
    """From standard input with --password-stdin (scripts), else asked twice on the terminal."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    import getpass

    first = getpass.getpass("Password: ")
    if getpass.getpass("Again: ") != first:
        raise ValueError("the two passwords differ")
    return first


def _on_database(work: Callable[[Graph], Awaitable[str]]) -> str:
    """Run `work` against the configured (or local development) Neo4j, schema applied."""
    from service import cypher
    from service.graph import Graph

    settings = resolved_settings()

    async def run() -> str:
        graph = Graph.connect(settings, cypher.load(), settings.neo4j_uri or "")
        try:
            await graph.apply_schema()
            return await work(graph)
        finally:
            await graph.close()

    return asyncio.run(run())


def _user_create(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from service.errors import Conflict
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
            made = await users.create(graph, request)
        except Conflict as exc:
            raise ValueError(exc.detail) from exc
        return f"created {made.username} ({made.role}), id {made.id}"

    print(_on_database(create))
    return 0


def _user_set_password(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

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
        await users.update(graph, found.id, patch, frozenset())
        return f"new password set for {found.username}; their sessions have ended"

    print(_on_database(set_password))
    return 0


def _first_problem(exc: Any) -> str:
    error = exc.errors(include_url=False)[0]
    return f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}"


def _ingest_manifest(args: argparse.Namespace) -> int:
    import gzip
    from pathlib import Path

    import httpx

    if not args.token:
        raise ValueError("an API token is needed: --token or GOVERNANCE_TOKEN")
    raw = Path(args.path).read_bytes()
    body = raw if raw[:2] == b"\x1f\x8b" else gzip.compress(raw, compresslevel=5)
    params = {"prune": "false" if args.no_prune else "true"}
    if args.project:
        params["project"] = args.project
    base = args.url.rstrip("/").removesuffix("/api/v1")
    response = httpx.post(
        base + "/api/v1/lineage/manifest",
        content=body,
        params=params,
        timeout=900,
        headers={
            "Authorization": f"Bearer {args.token}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
        },
    )
    print(response.text)
    return 0 if response.status_code == 200 else 1


def _neo4j_start(args: argparse.Namespace) -> int:
    from service.localdb import LocalNeo4j, default_cache_dir

    info = LocalNeo4j(default_cache_dir()).start()
    print(f"neo4j running at {info.uri} (user {info.username}; password in the instance folder)")
    return 0


def _neo4j_stop(args: argparse.Namespace) -> int:
    from service.localdb import LocalNeo4j, default_cache_dir

    LocalNeo4j(default_cache_dir()).stop()
    print("neo4j stopped")
    return 0


def _neo4j_status(args: argparse.Namespace) -> int:
    from service.localdb import LocalNeo4j, default_cache_dir

    status = LocalNeo4j(default_cache_dir()).status()
    state = f"running (pid {status.pid})" if status.running else "stopped"
    print(f"neo4j {state} at {status.uri}; home {status.home}")
    return 0 if status.running else 3


if __name__ == "__main__":
    sys.exit(main())
