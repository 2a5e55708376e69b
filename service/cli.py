"""The `governance` console command.

governance serve                       run the service (starts the local Neo4j if NEO4J_URI is unset)
governance token create --name N --scope S [--expires-in-days D]
governance neo4j start|stop|status     the local development Neo4j
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from pydantic import SecretStr

from service.settings import Settings


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

    token = commands.add_parser("token", help="API tokens").add_subparsers(title="token commands")
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
    from service import cypher
    from service.graph import Graph
    from service.models.tokens import TokenCreate
    from service.store import tokens

    settings = resolved_settings()
    request = TokenCreate(name=args.name, scopes=args.scope, expires_in_days=args.expires_in_days)

    async def create() -> str:
        graph = Graph.connect(settings, cypher.load(), settings.neo4j_uri or "")
        try:
            await graph.apply_schema()
            made = await tokens.create(
                graph, request, created_by=f"cli:{os.getenv('USER', 'unknown')}"
            )
            return made.token
        finally:
            await graph.close()

    print(asyncio.run(create()))
    return 0


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
