"""Configuration from the environment.

Neo4j keeps its own variable names (`NEO4J_URI`, ...) so that the service reads
the same settings as every other Neo4j tool; the service's own knobs are
`GOVERNANCE_*`. Secrets are `SecretStr` so they never print by accident.
"""

from __future__ import annotations

import base64
import binascii
import builtins
import os
from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, SecretStr

MIB = 1024 * 1024
LogFormat = Literal["auto", "json", "text"]
LogLevel = Literal["debug", "info", "warning", "error"]


def env(name: str, default: Any, description: str) -> Any:
    """A field read from the environment variable `name`. Its default and description
    are what docs/configuration.md is generated from (`python -m service.settings_doc`),
    and a unit test checks that `from_env` reads `name` into this field with this default."""
    return Field(default, description=description, json_schema_extra={"env": name})


class Limits(BaseModel):
    """Request sizes, traversal bounds and time limits."""

    model_config = ConfigDict(frozen=True)

    max_body_bytes: int = env(
        "GOVERNANCE_MAX_BODY_BYTES",
        10 * MIB,
        "Largest JSON request body in bytes (10 MiB), counted after gzip is inflated; "
        "a larger one is 413.",
    )
    max_manifest_bytes: int = env(
        "GOVERNANCE_MAX_MANIFEST_BYTES",
        256 * MIB,
        "Largest dbt upload (manifest.json or run_results.json, through the API or the "
        "dashboard's Ingest page) in bytes after decompression (256 MiB); past it 413.",
    )
    body_timeout_s: float = env(
        "GOVERNANCE_BODY_TIMEOUT",
        30.0,
        "Seconds a client has to send a whole request body; a body still arriving after "
        "it is 408 `body_timeout` and nothing is written.",
    )
    max_concurrent_inflations: int = env(
        "GOVERNANCE_MAX_CONCURRENT_INFLATIONS",
        2,
        "Most gzip dbt uploads one process inflates and parses at once (a manifest streams "
        "to a spooled file, a run-results file is held whole); others wait their turn.",
    )
    inflation_wait_s: float = env(
        "GOVERNANCE_INFLATION_WAIT",
        30.0,
        "Seconds a gzip dbt upload waits for a turn to inflate before it is refused with "
        "503 `server_busy` and a Retry-After.",
    )
    max_bulk_edges: int = env(
        "GOVERNANCE_MAX_BULK_EDGES",
        10_000,
        "Most edges in one `POST /lineage/bulk` request, and most OpenLineage events in "
        "one request.",
    )
    max_lineage_depth: int = env(
        "GOVERNANCE_MAX_LINEAGE_DEPTH",
        50,
        "Deepest a walk may go, in hops: lineage reads, queries, policy walks and the "
        "downstream impact of quality alerts.",
    )
    default_lineage_depth: int = 5
    max_lineage_nodes: int = env(
        "GOVERNANCE_MAX_LINEAGE_NODES",
        10_000,
        "Most assets a lineage answer may hold (the upper bound of `limit`), most items "
        "in a query page, and most paths a path query enumerates.",
    )
    default_lineage_nodes: int = 2_000
    max_page_size: int = 500
    default_page_size: int = 50
    query_timeout_s: float = env(
        "GOVERNANCE_QUERY_TIMEOUT",
        10.0,
        "Seconds one Neo4j transaction may run. A query stopped by it is 422 "
        "`query_timeout`; a write stopped by it is 503 `neo4j_busy` and wrote nothing.",
    )
    ingest_timeout_s: float = env(
        "GOVERNANCE_INGEST_TIMEOUT",
        120.0,
        "Seconds one lineage ingestion transaction may run (`POST /lineage/bulk` of up to "
        "the bulk limit, an OpenLineage request) in place of the query timeout, which a "
        "10,000-edge request can pass on a busy database. Past it the request is 503 "
        "`neo4j_busy` with a Retry-After and nothing is written.",
    )
    max_json_depth: int = 200
    quality_history: int = env(
        "GOVERNANCE_QUALITY_HISTORY",
        100,
        "Results each quality rule keeps, newest first; older ones are dropped.",
    )


class EventSettings(BaseModel):
    """The event log and live streams."""

    model_config = ConfigDict(frozen=True)

    poll_interval_s: float = env(
        "GOVERNANCE_EVENT_POLL_INTERVAL",
        0.25,
        "Seconds between each process's looks at the outbox for new events: the longest "
        "a live stream waits for an event written through another process.",
    )
    heartbeat_s: float = env(
        "GOVERNANCE_SSE_HEARTBEAT",
        15.0,
        "Seconds between keep-alive comments on an event stream, so proxies keep it open.",
    )
    subscriber_buffer: int = env(
        "GOVERNANCE_SSE_BUFFER",
        1_000,
        "Events a stream may fall behind by before it is disconnected (the reader "
        "resumes with `Last-Event-ID`).",
    )
    retention_days: int = env(
        "GOVERNANCE_EVENT_RETENTION_DAYS",
        30,
        "Days the event log keeps an event; older ones are removed by the hourly housekeeping.",
    )


class WebhookSettings(BaseModel):
    """Webhook delivery."""

    model_config = ConfigDict(frozen=True)

    dispatch: bool = env(
        "GOVERNANCE_WEBHOOK_DISPATCH",
        True,
        "Whether this process takes part in webhook dispatch (one process at a time "
        "leads, under a lease in Neo4j); false: it serves the API only.",
    )
    allow_private: bool = env(
        "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE",
        False,
        "Let webhooks target loopback, private and link-local addresses, and plain "
        "http (tests, closed networks).",
    )
    timeout_s: float = env("GOVERNANCE_WEBHOOK_TIMEOUT", 15.0, "Seconds one delivery may take.")
    retry_schedule: tuple[float, ...] = env(
        "GOVERNANCE_WEBHOOK_RETRY_SCHEDULE",
        (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 86400.0),
        "Seconds to wait after the 1st, 2nd, ... failed attempt, comma-separated (about "
        "5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h), each with ±20% jitter; a longer "
        "`Retry-After` from the receiver wins. When it is spent, the delivery fails.",
    )
    disable_after_s: float = env(
        "GOVERNANCE_WEBHOOK_DISABLE_AFTER",
        86400.0,
        "Seconds a webhook may keep failing before it is disabled (`webhook.disabled`).",
    )
    poll_interval_s: float = env(
        "GOVERNANCE_WEBHOOK_POLL_INTERVAL",
        1.0,
        "Seconds the dispatcher rests, when it found nothing to do, before it looks "
        "again for new events and due retries.",
    )
    secret_keys: tuple[SecretStr, ...] = env(
        "GOVERNANCE_SECRET_KEY",
        (),
        "Comma-separated keys, each 32 random bytes in URL-safe base64, that encrypt "
        "webhook secrets at rest: the first seals, the others only open what older keys "
        "sealed (rotation: docs/operations.md). `governance serve` requires it with "
        "`NEO4J_URI`; with the local development Neo4j it keeps one in that instance's folder.",
    )
    lease_ttl_s: float = 15.0


class PolicySettings(BaseModel):
    """Background policy evaluation."""

    model_config = ConfigDict(frozen=True)

    evaluate: bool = env(
        "GOVERNANCE_POLICY_EVALUATION",
        True,
        "Whether this process re-evaluates policies after changes (one process at a "
        "time leads, under a lease in Neo4j).",
    )
    debounce_s: float = env(
        "GOVERNANCE_POLICY_DEBOUNCE",
        1.0,
        "Seconds of quiet after the last change before policies are re-evaluated.",
    )
    max_delay_s: float = env(
        "GOVERNANCE_POLICY_MAX_DELAY",
        10.0,
        "Longest a change waits for re-evaluation, in seconds, however busy the writes.",
    )
    lease_ttl_s: float = 15.0
    timeout_s: float = env(
        "GOVERNANCE_POLICY_TIMEOUT",
        300.0,
        "Seconds one policy's evaluation may take (it walks the whole governed graph).",
    )


class RateLimit(BaseModel):
    """Rate limits and sign-in throttling. Each process counts on its own, so N
    processes allow N times these rates."""

    model_config = ConfigDict(frozen=True)

    per_second: float = env(
        "GOVERNANCE_RATE_LIMIT_PER_SECOND",
        100.0,
        "Requests per second each token may make; past it 429 with `Retry-After`.",
    )
    burst: int = env(
        "GOVERNANCE_RATE_LIMIT_BURST",
        200,
        "Requests a token may make at once before the per-second rate applies.",
    )
    auth_failures_per_minute: int = env(
        "GOVERNANCE_AUTH_FAILURES_PER_MINUTE",
        30,
        "Failed authentications (API or dashboard sign-in) per client address per "
        "minute; past it further failures answer 429, while a valid token from the same "
        "address still works.",
    )
    sign_in_failures_per_minute: int = env(
        "GOVERNANCE_SIGN_IN_FAILURES_PER_MINUTE",
        5,
        "Failed dashboard sign-ins per username per minute.",
    )


class Observability(BaseModel):
    """Logs and metrics. docs/observability.md describes the log lines and every series."""

    model_config = ConfigDict(frozen=True)

    log_format: LogFormat = env(
        "GOVERNANCE_LOG_FORMAT",
        "auto",
        "`json`: one JSON object per line; `text`: lines for people; `auto`: text when "
        "standard output is a terminal, JSON otherwise (a pipe, a file, a container).",
    )
    log_level: LogLevel = env(
        "GOVERNANCE_LOG_LEVEL",
        "info",
        "Lowest level the service and uvicorn log at: `debug`, `info`, `warning` or "
        "`error`. Other libraries log their warnings and errors only.",
    )
    metrics_token: SecretStr | None = env(
        "GOVERNANCE_METRICS_TOKEN",
        None,
        "When set, `GET /metrics` answers only a scrape that sends it as "
        "`Authorization: Bearer <token>` (401 otherwise); unset, `/metrics` is open.",
    )
    server_timing: bool = env(
        "GOVERNANCE_SERVER_TIMING",
        True,
        "Send `Server-Timing: db;dur=…, total;dur=…` (milliseconds) with every answer: "
        "time spent waiting on Neo4j and until the service answered. `false` leaves it "
        "out, for a deployment that would not show callers its timings.",
    )


class LocalNeo4jSettings(BaseModel):
    """The local development Neo4j. Read only when `NEO4J_URI` is unset and the service
    (or `governance neo4j start`) starts its own Neo4j; sizes are a whole number with an
    optional `k`, `m` or `g` suffix. Changing one needs `governance neo4j stop` first."""

    model_config = ConfigDict(frozen=True)

    heap: str | None = env(
        "GOVERNANCE_NEO4J_HEAP",
        None,
        "JVM heap of the local Neo4j (initial = maximum). Unset: an eighth of the "
        "machine's memory, at least 512m and at most 8g. One transaction may use a "
        "quarter of it.",
    )
    pagecache: str | None = env(
        "GOVERNANCE_NEO4J_PAGECACHE",
        None,
        "Page cache of the local Neo4j, which holds the graph's store files in memory. "
        "Unset: an eighth of the machine's memory, at least 512m and at most 16g.",
    )


class Settings(BaseModel):
    """Neo4j and the HTTP server."""

    model_config = ConfigDict(frozen=True)

    neo4j_uri: str | None = env(
        "NEO4J_URI",
        None,
        "The Neo4j to use: `bolt://host:7687` for one server, `neo4j://host:7687` for a "
        "cluster (routing). Unset, `governance serve` starts the local development Neo4j.",
    )
    neo4j_username: str = env("NEO4J_USERNAME", "neo4j", "The user the service signs in as.")
    neo4j_password: SecretStr = env(
        "NEO4J_PASSWORD", SecretStr(""), "That user's password (a secret: never printed)."
    )
    neo4j_database: str = env("NEO4J_DATABASE", "neo4j", "The database that holds the graph.")
    neo4j_connect_timeout_s: float = env(
        "NEO4J_CONNECT_TIMEOUT",
        3.0,
        "Seconds a request waits for a Neo4j connection, and the driver retries a "
        "failed transaction, before answering 503 with `Retry-After`.",
    )
    host: str = env(
        "GOVERNANCE_HOST",
        "127.0.0.1",
        "Address the HTTP server listens on (`0.0.0.0`: every interface; the container "
        "image sets it).",
    )
    port: int = env("GOVERNANCE_PORT", 8080, "TCP port the HTTP server listens on.")
    cors_origins: tuple[str, ...] = env(
        "GOVERNANCE_CORS_ORIGINS",
        (),
        "Comma-separated origins whose pages may call the API from a browser (CORS); "
        "empty: no CORS headers at all.",
    )
    admin_password: SecretStr | None = env(
        "GOVERNANCE_ADMIN_PASSWORD",
        None,
        "The first admin's password, read only when the service starts with no user at "
        "all; unset, a generated one is printed once on standard output.",
    )
    dataset_namespaces: tuple[tuple[str, str], ...] = env(
        "GOVERNANCE_DATASET_NAMESPACES",
        (),
        "Where each dbt adapter's tables live, as OpenLineage names the namespace: "
        "comma-separated `adapter=namespace` pairs, e.g. "
        "`snowflake=snowflake://acme-prod,postgres=postgres://db.internal:5432`. A manifest "
        "uploaded without `namespace` gives its models, seeds, snapshots and sources the "
        "dataset `(namespace, database.schema.identifier)` of its adapter's entry; with no "
        "entry, they hold no dataset.",
    )
    limits: Limits = Field(default_factory=Limits)
    rate_limit: RateLimit = Field(default_factory=RateLimit)
    events: EventSettings = Field(default_factory=EventSettings)
    webhooks: WebhookSettings = Field(default_factory=WebhookSettings)
    policies: PolicySettings = Field(default_factory=PolicySettings)
    observability: Observability = Field(default_factory=Observability)
    local_neo4j: LocalNeo4jSettings = Field(default_factory=LocalNeo4jSettings)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        g = _Reader(e)
        return cls(
            neo4j_uri=e.get("NEO4J_URI") or None,
            neo4j_username=e.get("NEO4J_USERNAME", "neo4j"),
            neo4j_password=SecretStr(e.get("NEO4J_PASSWORD", "")),
            neo4j_database=e.get("NEO4J_DATABASE", "neo4j"),
            neo4j_connect_timeout_s=g.float("NEO4J_CONNECT_TIMEOUT", 3.0),
            host=e.get("GOVERNANCE_HOST", "127.0.0.1"),
            port=g.int("GOVERNANCE_PORT", 8080),
            admin_password=g.secret("GOVERNANCE_ADMIN_PASSWORD"),
            cors_origins=tuple(
                o.strip() for o in e.get("GOVERNANCE_CORS_ORIGINS", "").split(",") if o.strip()
            ),
            dataset_namespaces=g.pairs("GOVERNANCE_DATASET_NAMESPACES"),
            webhooks=WebhookSettings(
                dispatch=g.bool("GOVERNANCE_WEBHOOK_DISPATCH", True),
                allow_private=g.bool("GOVERNANCE_WEBHOOK_ALLOW_PRIVATE", False),
                timeout_s=g.float("GOVERNANCE_WEBHOOK_TIMEOUT", 15.0),
                retry_schedule=g.floats(
                    "GOVERNANCE_WEBHOOK_RETRY_SCHEDULE",
                    (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 86400.0),
                ),
                disable_after_s=g.float("GOVERNANCE_WEBHOOK_DISABLE_AFTER", 86400.0),
                poll_interval_s=g.float("GOVERNANCE_WEBHOOK_POLL_INTERVAL", 1.0),
                secret_keys=g.keys("GOVERNANCE_SECRET_KEY"),
            ),
            limits=Limits(
                max_body_bytes=g.int("GOVERNANCE_MAX_BODY_BYTES", 10 * MIB),
                max_manifest_bytes=g.int("GOVERNANCE_MAX_MANIFEST_BYTES", 256 * MIB),
                body_timeout_s=g.float("GOVERNANCE_BODY_TIMEOUT", 30.0),
                max_concurrent_inflations=g.int("GOVERNANCE_MAX_CONCURRENT_INFLATIONS", 2),
                inflation_wait_s=g.float("GOVERNANCE_INFLATION_WAIT", 30.0),
                max_bulk_edges=g.int("GOVERNANCE_MAX_BULK_EDGES", 10_000),
                max_lineage_depth=g.int("GOVERNANCE_MAX_LINEAGE_DEPTH", 50),
                max_lineage_nodes=g.int("GOVERNANCE_MAX_LINEAGE_NODES", 10_000),
                query_timeout_s=g.float("GOVERNANCE_QUERY_TIMEOUT", 10.0),
                ingest_timeout_s=g.float("GOVERNANCE_INGEST_TIMEOUT", 120.0),
                quality_history=g.int("GOVERNANCE_QUALITY_HISTORY", 100),
            ),
            events=EventSettings(
                poll_interval_s=g.float("GOVERNANCE_EVENT_POLL_INTERVAL", 0.25),
                heartbeat_s=g.float("GOVERNANCE_SSE_HEARTBEAT", 15.0),
                subscriber_buffer=g.int("GOVERNANCE_SSE_BUFFER", 1_000),
                retention_days=g.int("GOVERNANCE_EVENT_RETENTION_DAYS", 30),
            ),
            policies=PolicySettings(
                evaluate=g.bool("GOVERNANCE_POLICY_EVALUATION", True),
                debounce_s=g.float("GOVERNANCE_POLICY_DEBOUNCE", 1.0),
                max_delay_s=g.float("GOVERNANCE_POLICY_MAX_DELAY", 10.0),
                timeout_s=g.float("GOVERNANCE_POLICY_TIMEOUT", 300.0),
            ),
            rate_limit=RateLimit(
                per_second=g.float("GOVERNANCE_RATE_LIMIT_PER_SECOND", 100.0),
                burst=g.int("GOVERNANCE_RATE_LIMIT_BURST", 200),
                auth_failures_per_minute=g.int("GOVERNANCE_AUTH_FAILURES_PER_MINUTE", 30),
                sign_in_failures_per_minute=g.int("GOVERNANCE_SIGN_IN_FAILURES_PER_MINUTE", 5),
            ),
            observability=Observability(
                log_format=g.choice("GOVERNANCE_LOG_FORMAT", "auto", get_args(LogFormat)),
                log_level=g.choice("GOVERNANCE_LOG_LEVEL", "info", get_args(LogLevel)),
                metrics_token=g.secret("GOVERNANCE_METRICS_TOKEN"),
                server_timing=g.bool("GOVERNANCE_SERVER_TIMING", True),
            ),
            local_neo4j=LocalNeo4jSettings(
                heap=e.get("GOVERNANCE_NEO4J_HEAP") or None,
                pagecache=e.get("GOVERNANCE_NEO4J_PAGECACHE") or None,
            ),
        )


class _Reader:
    """Typed reads that name the variable when its value is wrong."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env

    def int(self, name: str, default: int) -> int:
        raw = self._env.get(name)
        try:
            return default if raw in (None, "") else int(raw)
        except ValueError as exc:
            raise ValueError(f"{name} must be an integer, got {raw!r}") from exc

    def float(self, name: str, default: float) -> float:
        raw = self._env.get(name)
        try:
            return default if raw in (None, "") else float(raw)
        except ValueError as exc:
            raise ValueError(f"{name} must be a number, got {raw!r}") from exc

    def floats(self, name: str, default: tuple[builtins.float, ...]) -> tuple[builtins.float, ...]:
        raw = self._env.get(name)
        if raw in (None, ""):
            return default
        try:
            return tuple(float(part) for part in raw.split(","))
        except ValueError as exc:
            raise ValueError(f"{name} must be comma-separated numbers, got {raw!r}") from exc

    def bool(self, name: str, default: bool) -> bool:
        raw = self._env.get(name)
        if raw in (None, ""):
            return default
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{name} must be true or false, got {raw!r}")

    def pairs(self, name: str) -> tuple[tuple[str, str], ...]:
        """Comma-separated `key=value` pairs; keys lower-cased, both stripped."""
        found = []
        for part in (self._env.get(name) or "").split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(f"{name}: {part.strip()!r} is not key=value")
            found.append((key.strip().lower(), value.strip()))
        return tuple(found)

    def secret(self, name: str) -> SecretStr | None:
        raw = self._env.get(name)
        return SecretStr(raw) if raw else None

    def keys(self, name: str) -> tuple[SecretStr, ...]:
        """Comma-separated 32-byte keys in URL-safe base64; the value is never echoed."""
        parts = [p.strip() for p in (self._env.get(name) or "").split(",") if p.strip()]
        for number, part in enumerate(parts, start=1):
            try:
                valid = len(base64.urlsafe_b64decode(part.encode())) == 32 and len(part) == 44
            except (ValueError, binascii.Error):
                valid = False
            if not valid:
                raise ValueError(f"{name}: key {number} is not 32 bytes in URL-safe base64")
        return tuple(SecretStr(part) for part in parts)

    def choice(self, name: str, default: str, allowed: tuple[str, ...]) -> Any:
        raw = (self._env.get(name) or default).strip().lower()
        if raw not in allowed:
            raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {raw!r}")
        return raw
