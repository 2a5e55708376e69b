"""The `governance` console command.

governance serve [--workers N]         run the service (starts the local Neo4j if NEO4J_URI is unset)
governance token create --name N --scope S [--expires-in-days D] [--user U]
governance user create --username U --role R [--password-stdin]
governance user set-password --username U [--password-stdin]
governance team put|add-member|remove-member|list     teams (straight on the database)
governance domain put|list|delete      domains (straight on the database)
governance neo4j start|stop|status     the local development Neo4j
governance ingest manifest|run-results|openlineage PATH...   files sent to a running service
governance check manifest PATH --project P   a candidate manifest's change impact (a CI step)
governance openapi                     print the OpenAPI document
governance --version

A failure is one line on standard error and exit status 1 (2 for a usage error,
130 when interrupted; `check` exits 1 for a failed check and 2 when it could not
run); `--debug` shows the traceback of an unexpected one.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from service import __version__, cli_access, cli_database
from service.cli_database import resolved_settings
from service.cli_output import CliError, explain
from service.settings import Settings

if TYPE_CHECKING:
    from starlette.applications import Starlette

Commands = argparse._SubParsersAction  # argparse names no public type for it


# What the Neo4j driver and httpx import at start whenever it is installed, for what
# no command uses: the driver's NumPy, pandas and Arrow conversions, and httpx's own
# command-line tool (click, rich's syntax highlighting, Pygments' lexers). In an
# environment that has them, as a data engineer's often does, they were most of a
# command's start-up CPU. Marked absent in the command's own process only: `main`,
# called in-process, changes no importer's world.
UNUSED_OPTIONAL_IMPORTS = ("numpy", "pandas", "pyarrow", "httpx._main")


def run() -> int:
    """The `governance` command in a process of its own (its console script)."""
    _skip_unused_imports()
    return main()


def _skip_unused_imports() -> None:
    for name in UNUSED_OPTIONAL_IMPORTS:
        # None in sys.modules makes an import of it fail (the importer falls back, as
        # when the library is not installed); typeshed types the values as modules.
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.run is not _serve:  # serve sets up the service's own logging
        _log_long_work()
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print("governance: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        print(f"governance: {explain(exc)}", file=sys.stderr)
        return 1


def _log_long_work() -> None:
    """The local Neo4j's download and start take a while: say so on standard error.
    Once per process however often `main` runs (tests call it in-process), and to the
    standard error of the moment each line is written."""
    from service.logs import CLI_PROGRESS

    local = logging.getLogger(CLI_PROGRESS)
    if not any(isinstance(h, _ToStderr) for h in local.handlers):
        handler = _ToStderr()
        handler.setFormatter(logging.Formatter("governance: %(message)s"))
        local.addHandler(handler)
    local.setLevel(logging.INFO)
    local.propagate = False


class _ToStderr(logging.StreamHandler[TextIO]):
    """Writes to `sys.stderr` as it is when a record comes, not when it was made."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _: TextIO) -> None:
        """StreamHandler sets it; the property above always answers."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="governance", description="Data governance service")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an unexpected error"
    )
    parser.set_defaults(run=lambda _: _help(parser))
    commands = parser.add_subparsers(title="commands")
    _serve_command(commands)
    _token_commands(commands)
    _user_commands(commands)
    cli_access.add_commands(commands, _group)
    _ingest_commands(commands)
    _check_commands(commands)
    _lineage_commands(commands)
    neo4j = _group(commands, "neo4j", "the local development Neo4j")
    for name, run, what in (
        (
            "start",
            cli_database.neo4j_start,
            "start it (provisioned from Maven Central on first use)",
        ),
        ("stop", cli_database.neo4j_stop, "stop it"),
        ("status", cli_database.neo4j_status, "whether it runs (exit status 3 when it does not)"),
    ):
        neo4j.add_parser(name, help=what).set_defaults(run=run)
    openapi = commands.add_parser("openapi", help="print the OpenAPI document (no database needed)")
    openapi.set_defaults(run=_openapi)
    return parser


def _group(
    commands: Commands[argparse.ArgumentParser], name: str, what: str
) -> Commands[argparse.ArgumentParser]:
    """A command made of subcommands; alone, it prints its own help (exit status 2)."""
    group = commands.add_parser(name, help=what, description=what)
    group.set_defaults(run=lambda _: _help(group))
    return group.add_subparsers(title=f"{name} commands")


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _serve_command(commands: Commands[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", help="default GOVERNANCE_HOST or 127.0.0.1")
    serve.add_argument("--port", type=int, help="default GOVERNANCE_PORT or 8080; 0: any free port")
    serve.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="worker processes sharing the port, each with its own lifespan (default 1)",
    )
    serve.add_argument(
        "--fd", type=int, help="serve on this inherited listening socket instead of host:port"
    )
    serve.set_defaults(run=_serve)


def _token_commands(commands: Commands[argparse.ArgumentParser]) -> None:
    token = _group(commands, "token", "API tokens (straight on the database)")
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
    create.add_argument(
        "--user",
        metavar="USERNAME",
        help="tie the token to this user: it then acts with their global role and their "
        "roles in domains (as a token made in the dashboard), capped as they change; without "
        "it, the token acts as the global role its scope names and holds no domain role",
    )
    create.set_defaults(run=cli_database.token_create)


def _user_commands(commands: Commands[argparse.ArgumentParser]) -> None:
    user = _group(commands, "user", "dashboard users (straight on the database)")
    user_create = user.add_parser("create", help="create a user; asks for the password")
    user_create.add_argument("--username", required=True)
    user_create.add_argument("--role", required=True, choices=["viewer", "editor", "admin"])
    user_create.add_argument("--display-name")
    user_create.set_defaults(run=cli_database.user_create)
    set_password = user.add_parser(
        "set-password", help="give a user a new password (ends their sessions); for recovery"
    )
    set_password.add_argument("--username", required=True)
    set_password.set_defaults(run=cli_database.user_set_password)
    for command in (user_create, set_password):
        command.add_argument(
            "--password-stdin", action="store_true", help="read the password from standard input"
        )


INGEST_KINDS = {
    "manifest": "dbt manifest.json files (also .json.gz): assets, lineage, quality rules",
    "run-results": "dbt run_results.json files: test results for the manifest's rules",
    "openlineage": "OpenLineage run events: one per line (NDJSON) or a JSON array",
    "sql": "SQL files (a statement, a script, a query log's text): table and column lineage",
}
SQL_DIALECTS = (
    "snowflake", "bigquery", "postgres", "redshift", "mysql", "trino", "duckdb",
    "databricks", "spark", "hive", "tsql", "athena", "clickhouse", "oracle", "sqlite",
)  # fmt: skip


def _ingest_commands(commands: Commands[argparse.ArgumentParser]) -> None:
    ingest = _group(commands, "ingest", "send metadata files to a running service")
    for kind, what in INGEST_KINDS.items():
        command = ingest.add_parser(kind, help=what, description=what)
        command.add_argument("paths", nargs="+", metavar="PATH")
        command.add_argument(
            "--url",
            default=os.environ.get("GOVERNANCE_URL", "http://127.0.0.1:8080"),
            help="the service (default GOVERNANCE_URL or http://127.0.0.1:8080)",
        )
        command.add_argument(
            "--token",
            default=os.environ.get("GOVERNANCE_TOKEN"),
            help="an API token with scope write (default GOVERNANCE_TOKEN)",
        )
        command.add_argument(
            "--json", action="store_true", help="print the service's answer, one line per PATH"
        )
        command.set_defaults(run=_ingest, kind=kind)
        if kind == "manifest":
            command.add_argument("--project", help="default: the manifest's project name")
            command.add_argument(
                "--namespace",
                help="where the project's tables live, as OpenLineage names it (e.g. "
                "snowflake://acme-prod): its models, seeds, snapshots and sources hold "
                "those datasets (default: the service's GOVERNANCE_DATASET_NAMESPACES)",
            )
            command.add_argument(
                "--no-prune",
                action="store_true",
                help="keep edges and rules an earlier upload made that this one lacks",
            )
        if kind == "sql":
            _sql_arguments(command)
        if kind == "openlineage":
            command.add_argument(
                "--batch-size",
                type=_batch_size,
                default=10_000,
                help="events per request, at most 10,000 (the default)",
            )


def _sql_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--dialect", required=True, help="the SQL dialect: " + ", ".join(SQL_DIALECTS)
    )
    command.add_argument(
        "--namespace",
        required=True,
        help="where the tables live, as OpenLineage names it (e.g. snowflake://acme-prod)",
    )
    command.add_argument("--default-database", help="fills a table name's missing database")
    command.add_argument("--default-schema", help="fills a table name's missing schema")
    command.add_argument(
        "--source",
        help="names the writer: edges get origin sql:<source> (default: the file's name)",
    )


def _check_commands(commands: Commands[argparse.ArgumentParser]) -> None:
    from service.cli_report import FAIL_ON, FORMATS

    check = _group(commands, "check", "check a change before it is merged (a CI step)")
    what = (
        "a candidate dbt manifest (also .json.gz) against the project as the service holds "
        "it: what it changes and who reads that downstream; writes nothing"
    )
    command = check.add_parser("manifest", help=what, description=what)
    command.add_argument("path", metavar="PATH")
    command.add_argument(
        "--project", required=True, help="the dbt project as it was uploaded (its name)"
    )
    command.add_argument(
        "--namespace", help="where the project's tables live, as for `ingest manifest`"
    )
    command.add_argument(
        "--format", choices=FORMATS, default="text", help="the report's form (default text)"
    )
    command.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="breaking",
        help="exit 1 on a breaking change (default), on any change, or never",
    )
    command.add_argument(
        "--depth",
        type=_positive,
        help="hops downstream to walk (default: the service's GOVERNANCE_MAX_LINEAGE_DEPTH)",
    )
    command.add_argument(
        "--url",
        default=os.environ.get("GOVERNANCE_URL", "http://127.0.0.1:8080"),
        help="the service (default GOVERNANCE_URL or http://127.0.0.1:8080)",
    )
    command.add_argument(
        "--token",
        default=os.environ.get("GOVERNANCE_TOKEN"),
        help="an API token with scope read (default GOVERNANCE_TOKEN)",
    )
    command.set_defaults(run=_check)


def _lineage_commands(commands: Commands[argparse.ArgumentParser]) -> None:
    lineage = _group(commands, "lineage", "read lineage from a running service")
    what = (
        "an asset's lineage neighbourhood as a file: OpenLineage events (which "
        "POST /lineage/openlineage takes back), GraphViz DOT, Mermaid or CSV"
    )
    command = lineage.add_parser("export", help=what, description=what)
    command.add_argument("asset_id", metavar="ID", help="the asset at the centre")
    command.add_argument(
        "--format",
        choices=_ExportFormats(),
        metavar="FORMAT",  # argparse would list the choices while building the parser
        required=True,
        help="the file's format: %(choices)s",
    )
    command.add_argument(
        "--direction",
        choices=("both", "upstream", "downstream"),
        default="both",
        help="which side to walk (default both)",
    )
    command.add_argument(
        "--depth", type=_positive, help="hops to walk (default: the service's default, 5)"
    )
    command.add_argument(
        "--limit",
        type=_positive,
        help="most assets (default and ceiling: the service's GOVERNANCE_MAX_EXPORT_NODES)",
    )
    command.add_argument(
        "--as-of", dest="as_of", help="an RFC 3339 instant: the lineage as it stood then"
    )
    command.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default: standard output)"
    )
    command.add_argument(
        "--url",
        default=os.environ.get("GOVERNANCE_URL", "http://127.0.0.1:8080"),
        help="the service (default GOVERNANCE_URL or http://127.0.0.1:8080)",
    )
    command.add_argument(
        "--token",
        default=os.environ.get("GOVERNANCE_TOKEN"),
        help="an API token with scope read (default GOVERNANCE_TOKEN)",
    )
    command.set_defaults(run=_export)


class _ExportFormats:
    """The export formats' names, read only once a command line names one or asks for
    help: their module brings the lineage domain and sqlglot with it, about 0.2 s of
    CPU every other command (the tests run hundreds) would pay to start."""

    def __contains__(self, name: object) -> bool:
        return name in _export_format_names()

    def __iter__(self) -> Iterator[str]:
        return iter(_export_format_names())


def _export_format_names() -> tuple[str, ...]:
    from service.domain.lineage_export_formats import NAMES

    return NAMES


def _export(args: argparse.Namespace) -> int:
    from service import cli_export

    return cli_export.run(args)


def _check(args: argparse.Namespace) -> int:
    from service import cli_check

    return cli_check.run(args)


def _batch_size(text: str) -> int:
    value = _positive(text)
    if value > 10_000:
        raise argparse.ArgumentTypeError(f"at most 10,000 events per request, not {value}")
    return value


def _ingest(args: argparse.Namespace) -> int:
    from service import cli_ingest

    return cli_ingest.run(args)


def _openapi(args: argparse.Namespace) -> int:
    import orjson

    from service.app import openapi_document

    document = openapi_document(Settings.from_env().limits)
    sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import logging

    import uvicorn

    from service.server_protocol import UVICORN_HTTP

    # Before anything else, so the local Neo4j's download and start are visible too.
    _start_logging(Settings.from_env())
    settings = resolved_settings()
    _share_with_workers(settings)
    # A listening socket handed over by the process that started this one (a
    # supervisor, or a test that let the kernel pick a free port) is served as it is.
    listener = socket.socket(fileno=args.fd) if args.fd is not None else None
    host, port = (
        listener.getsockname()[:2]
        if listener
        else (args.host or settings.host, settings.port if args.port is None else args.port)
    )
    if listener is None and port != 0:
        _can_listen(host, port)
    if not settings.webhooks.secret_keys:
        raise CliError(
            "GOVERNANCE_SECRET_KEY is not set: with NEO4J_URI the service needs a key to "
            "encrypt webhook secrets at rest (see docs/operations.md)"
        )
    logging.getLogger("service").info(
        "serving on http://%s:%s/api/v1 with %d worker process%s (Neo4j at %s)",
        host,
        port or "<a free port uvicorn names below>",
        args.workers,
        "" if args.workers == 1 else "es",
        settings.neo4j_uri,
    )
    # Logging is ours (`service.logs`): uvicorn neither reconfigures it nor writes an
    # access log of its own. Every worker process builds its app with `serve_app`.
    options: dict[str, Any] = {
        "factory": True,
        "log_config": None,
        "access_log": False,
        "proxy_headers": False,
        "server_header": False,
        # httptools, except that an `Upgrade` offer no longer costs a request its body.
        "http": UVICORN_HTTP,
        # On SIGTERM, requests in flight get this long, then are cancelled. Event
        # streams, which never end by themselves, end at once (`server_protocol`).
        "timeout_graceful_shutdown": SHUTDOWN_GRACE_S,
    }
    with _shared_metrics(args.workers):
        if listener is None:
            uvicorn.run(APP_FACTORY, host=host, port=port, workers=args.workers, **options)
        else:
            _serve_on(listener, args.workers, options)
    return 0


@contextlib.contextmanager
def _shared_metrics(workers: int) -> Iterator[None]:
    """With several workers, an empty directory of this run's own through which they
    share their metrics (`service.metrics`), named in the environment they inherit
    and removed when they have all stopped."""
    if workers == 1:
        yield
        return
    import shutil
    import tempfile

    from service.metrics import SHARED_DIR

    directory = tempfile.mkdtemp(prefix="governance-metrics-")
    os.environ[SHARED_DIR] = directory
    try:
        yield
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _serve_on(listener: socket.socket, workers: int, options: dict[str, Any]) -> None:
    """Serve on an inherited socket: in this process, or in `workers` processes that
    all accept on it, kept alive by uvicorn's supervisor as `uvicorn.run` would."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(APP_FACTORY, workers=workers, **options)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is a normal stop, as in uvicorn.run
        if workers == 1:
            uvicorn.Server(config).run(sockets=[listener])
        else:
            Multiprocess(config, sockets=[listener]).run()


APP_FACTORY = "service.cli:serve_app"
SHUTDOWN_GRACE_S = 10


def serve_app() -> Starlette:
    """The application of one `governance serve` process. uvicorn calls it in every
    worker process it starts; each reads the same environment (`_serve` put the local
    Neo4j's address there) and runs its own lifespan."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:  # a worker process of `serve`'s own
        _skip_unused_imports()
    from service.app import create_app
    from service.gc_tuning import tune_for_serving

    settings = Settings.from_env()
    _start_logging(settings)
    app = create_app(settings)
    tune_for_serving()
    return app


def _start_logging(settings: Settings) -> None:
    from service import logs

    chosen = settings.observability
    logs.configure(chosen.log_format, chosen.log_level)


def _share_with_workers(settings: Settings) -> None:
    """Worker processes read their settings from the environment: name the Neo4j
    `resolved_settings` found (the local development one) there."""
    os.environ["NEO4J_URI"] = settings.neo4j_uri or ""
    os.environ["NEO4J_USERNAME"] = settings.neo4j_username
    os.environ["NEO4J_PASSWORD"] = settings.neo4j_password.get_secret_value()
    keys = settings.webhooks.secret_keys
    os.environ["GOVERNANCE_SECRET_KEY"] = ",".join(key.get_secret_value() for key in keys)


def _can_listen(host: str, port: int) -> None:
    """Fail with one line now rather than in uvicorn's start-up when the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


if __name__ == "__main__":
    sys.exit(main())
