"""Configuration from the environment.

Neo4j keeps its own variable names (`NEO4J_URI`, ...) so that the service reads
the same settings as every other Neo4j tool; the service's own knobs are
`GOVERNANCE_*`. Secrets are `SecretStr` so they never print by accident.

Each setting is declared once, as a field with `env(...)`: `Settings.from_env` reads
every such field of every group (`service.environment`), and docs/configuration.md is
generated from the same declarations. Bounds that must agree with each other (a
default within its maximum) are checked by the groups' validators, so a configuration
that would fail on some later request stops the start instead.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, SecretStr, model_validator

from service import environment
from service.cypher import MAX_BOUND

MIB = 1024 * 1024
LogFormat = Literal["auto", "json", "text"]
LogLevel = Literal["debug", "info", "warning", "error"]
CookieSecure = Literal["auto", "always", "never"]


def env(name: str, default: Any, description: str, **constraints: Any) -> Any:
    """A field read from the environment variable `name`, parsed by the field's type
    (`service.environment`) and held to `constraints` (`ge=1`, ...). Its default and
    description are what docs/configuration.md is generated from
    (`python -m service.settings_doc`)."""
    return Field(default, description=description, json_schema_extra={"env": name}, **constraints)


def _check_keys(keys: tuple[SecretStr, ...]) -> tuple[SecretStr, ...]:
    """Each key 32 bytes in URL-safe base64; a bad one is named by position, never echoed."""
    for number, key in enumerate(keys, start=1):
        text = key.get_secret_value()
        try:
            valid = len(base64.urlsafe_b64decode(text.encode())) == 32 and len(text) == 44
        except (ValueError, binascii.Error):
            valid = False
        if not valid:
            raise ValueError(f"key {number} is not 32 bytes in URL-safe base64")
    return keys


def _lower_keys(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """dbt adapter names are matched lower-case."""
    return tuple((key.lower(), value) for key, value in pairs)


SecretKeys = Annotated[tuple[SecretStr, ...], AfterValidator(_check_keys)]
AdapterPairs = Annotated[tuple[tuple[str, str], ...], AfterValidator(_lower_keys)]


class Limits(BaseModel):
    """Request sizes, traversal bounds and time limits."""

    model_config = ConfigDict(frozen=True)

    max_body_bytes: int = env(
        "GOVERNANCE_MAX_BODY_BYTES",
        10 * MIB,
        "Largest JSON request body in bytes (10 MiB), counted after gzip is inflated; "
        "a larger one is 413.",
        ge=1,
    )
    max_manifest_bytes: int = env(
        "GOVERNANCE_MAX_MANIFEST_BYTES",
        256 * MIB,
        "Largest dbt upload (manifest.json or run_results.json, through the API or the "
        "dashboard's Ingest page) in bytes after decompression (256 MiB); past it 413.",
        ge=1,
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
        ge=1,
    )
    max_lineage_depth: int = env(
        "GOVERNANCE_MAX_LINEAGE_DEPTH",
        50,
        "Deepest a walk may go, in hops: lineage reads, queries, policy walks and the "
        "downstream impact of quality alerts. Its ceiling is the largest bound a Cypher "
        "statement is written with.",
        ge=1,
        le=MAX_BOUND,
    )
    default_lineage_depth: int = env(
        "GOVERNANCE_DEFAULT_LINEAGE_DEPTH",
        5,
        "Hops a lineage read walks when it names no `depth`; at most "
        "`GOVERNANCE_MAX_LINEAGE_DEPTH`.",
        ge=1,
    )
    max_lineage_nodes: int = env(
        "GOVERNANCE_MAX_LINEAGE_NODES",
        10_000,
        "Most assets a lineage answer may hold (the upper bound of `limit`), most items "
        "in a query page, and most paths a path query enumerates.",
        ge=1,
    )
    default_lineage_nodes: int = env(
        "GOVERNANCE_DEFAULT_LINEAGE_NODES",
        2_000,
        "Most assets a lineage answer holds when the read names no `limit`; at most "
        "`GOVERNANCE_MAX_LINEAGE_NODES`.",
        ge=1,
    )
    max_lineage_fanout: int = env(
        "GOVERNANCE_MAX_LINEAGE_FANOUT",
        1_000,
        "Upper bound of a lineage read's `fanout` (the most neighbours each reached "
        "asset expands, first by id).",
        ge=1,
    )
    max_export_nodes: int = env(
        "GOVERNANCE_MAX_EXPORT_NODES",
        10_000,
        "Most assets a lineage export (`GET /lineage/{id}/export`, the CLI's and the "
        "dashboard's) may hold: the upper bound of its `limit`, and the `limit` an export "
        "that names none uses.",
        ge=1,
    )
    max_page_size: int = Field(500, ge=1)
    default_page_size: int = Field(50, ge=1)
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
    manifest_timeout_s: float = env(
        "GOVERNANCE_MANIFEST_TIMEOUT",
        600.0,
        "Seconds one transaction of a dbt manifest upload may run (the upload writes in "
        "batches of at most 5,000 rows, each its own transaction). Past it the upload is "
        "503 `neo4j_busy`; what earlier batches wrote stays, and the next upload completes it.",
        gt=0,
    )
    max_json_depth: int = 200
    quality_history: int = env(
        "GOVERNANCE_QUALITY_HISTORY",
        100,
        "Results each quality rule keeps, newest first; older ones are dropped.",
    )

    @model_validator(mode="after")
    def _defaults_within_maximums(self) -> Limits:
        """A default above its maximum would walk or page past what a request may ask."""
        environment.ordered(
            self,
            ("default_lineage_depth", "max_lineage_depth"),
            ("default_lineage_nodes", "max_lineage_nodes"),
            ("default_page_size", "max_page_size"),
        )
        return self


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


class HistorySettings(BaseModel):
    """Lineage history. Every change to an edge or column mapping, and every asset
    version, is kept; the hourly housekeeping forgets what retention lets go."""

    model_config = ConfigDict(frozen=True)

    retention_days: int = env(
        "GOVERNANCE_HISTORY_RETENTION_DAYS",
        0,
        "Days lineage history is kept: edge and column mapping intervals that ended longer "
        "ago are forgotten, and so are asset versions older than that but the newest one "
        "at the cutoff (the baseline), so `as_of` answers as before for any instant since "
        "the cutoff. 0 keeps everything.",
        ge=0,
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
    max_in_flight_per_receiver: int = env(
        "GOVERNANCE_WEBHOOK_MAX_IN_FLIGHT_PER_RECEIVER",
        10,
        "Most delivery attempts one webhook may have under way at once; its other due "
        "deliveries wait their turn, and other webhooks' deliveries go out meanwhile.",
        ge=1,
    )
    breaker_failures: int = env(
        "GOVERNANCE_WEBHOOK_BREAKER_FAILURES",
        5,
        "Failed attempts in a row (an error answer, a refused connection, a timeout) "
        "after which a webhook gets no attempt for `GOVERNANCE_WEBHOOK_BREAKER_COOLDOWN`.",
        ge=1,
    )
    breaker_cooldown_s: float = env(
        "GOVERNANCE_WEBHOOK_BREAKER_COOLDOWN",
        30.0,
        "Seconds a webhook whose attempts kept failing is left alone before one attempt "
        "probes it: a success resumes its deliveries, a failure pauses it again.",
        ge=0,
    )
    secret_keys: SecretKeys = env(
        "GOVERNANCE_SECRET_KEY",
        (),
        "Comma-separated keys, each 32 random bytes in URL-safe base64, that encrypt "
        "webhook secrets at rest: the first seals, the others only open what older keys "
        "sealed (rotation: docs/operations.md). `governance serve` requires it with "
        "`NEO4J_URI`; with the local development Neo4j it keeps one in that instance's folder.",
    )
    lease_ttl_s: float = env(
        "GOVERNANCE_WEBHOOK_LEASE_TTL",
        15.0,
        "Seconds the dispatching process's lease lasts unless renewed (it renews it every "
        "time it looks for work): after a crash, another process takes over dispatch "
        "within this long.",
        ge=1,
    )

    @model_validator(mode="after")
    def _renewed_within_lease(self) -> WebhookSettings:
        """A dispatcher resting longer than its lease would lose it between looks."""
        environment.ordered(self, ("poll_interval_s", "lease_ttl_s"))
        return self


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
        "Longest a change waits for re-evaluation, in seconds, however busy the writes; "
        "at least `GOVERNANCE_POLICY_DEBOUNCE`.",
    )
    lease_ttl_s: float = 15.0
    timeout_s: float = env(
        "GOVERNANCE_POLICY_TIMEOUT",
        300.0,
        "Seconds one policy's evaluation may take (it walks the whole governed graph).",
    )

    @model_validator(mode="after")
    def _debounce_within_delay(self) -> PolicySettings:
        """A debounce longer than the longest delay could never end a burst early."""
        environment.ordered(self, ("debounce_s", "max_delay_s"))
        return self


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
        "address still works. Single sign-ons started (`/auth/oidc/login`) are held to "
        "the same number a minute, counted apart: per browser (by a cookie each start "
        "hands out), and per client address for starts that come without one.",
    )
    sign_in_failures_per_minute: int = env(
        "GOVERNANCE_SIGN_IN_FAILURES_PER_MINUTE",
        5,
        "Failed dashboard sign-ins per username per minute.",
    )
    sso_starts_per_minute: int = env(
        "GOVERNANCE_SSO_STARTS_PER_MINUTE",
        600,
        "Single sign-ons started (`/auth/oidc/login`) per minute by all browsers "
        "together; past it every start answers 429 with `Retry-After`. The ceiling on "
        "what clients that drop their cookies can make the provider and Neo4j do.",
        ge=1,
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

    bolt_port: int = env(
        "GOVERNANCE_NEO4J_BOLT_PORT",
        17687,
        "Bolt port of the local Neo4j on 127.0.0.1. Each checkout keeps its own instance "
        "(in its `.cache/neo4j`); give a second checkout another port to run both side "
        "by side.",
    )
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


ROLES = ("viewer", "editor", "admin")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _check_role_map(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Each group maps to one of the roles (named lower-case, as the API names them)."""
    wrong = [role for _, role in pairs if role.lower() not in ROLES]
    if wrong:
        raise ValueError(f"roles must be one of {', '.join(ROLES)}, got {', '.join(wrong)}")
    return tuple((group, role.lower()) for group, role in pairs)


RoleMap = Annotated[tuple[tuple[str, str], ...], AfterValidator(_check_role_map)]


class SingleSignOn(BaseModel):
    """Single sign-on and local passwords. Single sign-on through an OpenID Connect
    provider is on when `GOVERNANCE_OIDC_ISSUER` is set; [sso.md](sso.md) says how to
    set it up with your identity provider."""

    model_config = ConfigDict(frozen=True)

    issuer: str | None = env(
        "GOVERNANCE_OIDC_ISSUER",
        None,
        "The provider's issuer URL, exactly as its discovery document "
        "(`<issuer>/.well-known/openid-configuration`) states it; https, or http on "
        "loopback only. Set, the sign-in page offers single sign-on.",
    )
    client_id: str | None = env(
        "GOVERNANCE_OIDC_CLIENT_ID", None, "The client id the provider gave this service."
    )
    client_secret: SecretStr | None = env(
        "GOVERNANCE_OIDC_CLIENT_SECRET",
        None,
        "The client's secret; or give `GOVERNANCE_OIDC_CLIENT_SECRET_FILE` instead.",
    )
    client_secret_file: str | None = env(
        "GOVERNANCE_OIDC_CLIENT_SECRET_FILE",
        None,
        "A file holding the client's secret (a mounted secret), read once at start; "
        "surrounding whitespace is ignored.",
    )
    scopes: tuple[str, ...] = env(
        "GOVERNANCE_OIDC_SCOPES",
        ("openid", "profile", "email"),
        "Scopes asked for, comma-separated; `openid` is always asked for. Add the one "
        "your provider needs to put groups in the ID token (often `groups`).",
    )
    redirect_uri: str | None = env(
        "GOVERNANCE_OIDC_REDIRECT_URI",
        None,
        "The redirect URI registered at the provider: `<the dashboard's URL>/auth/oidc/"
        "callback`. Unset, it is made from the address each request came to, which is "
        "wrong behind a proxy that rewrites the host or scheme.",
    )
    role_claim: str = env(
        "GOVERNANCE_OIDC_ROLE_CLAIM",
        "groups",
        "The ID token claim that lists the user's groups (a list of strings, or one string).",
    )
    role_map: RoleMap = env(
        "GOVERNANCE_OIDC_ROLE_MAP",
        (),
        "Comma-separated `group=role` pairs, e.g. `gov-admins=admin,gov-editors=editor`; "
        "a user in several mapped groups gets the highest of their roles, at every sign-in.",
    )
    default_role: Literal["none", "viewer", "editor", "admin"] = env(
        "GOVERNANCE_OIDC_DEFAULT_ROLE",
        "none",
        "The role of a user none of whose groups is mapped; `none` refuses their sign-in.",
    )
    button_label: str = env(
        "GOVERNANCE_OIDC_BUTTON_LABEL",
        "single sign-on",
        'What the sign-in button names: "Sign in with <label>".',
    )
    local_passwords: bool = env(
        "GOVERNANCE_LOCAL_PASSWORDS",
        True,
        "Whether people may sign in to the dashboard with a username and password; "
        "`false` (which needs single sign-on) leaves only the provider. API tokens and "
        "`governance user set-password` work either way.",
    )

    @model_validator(mode="after")
    def _complete(self) -> SingleSignOn:
        """A provider without a client, or no way in at all, would fail at sign-in."""
        problems = []
        if self.issuer is not None:
            if not self.client_id:
                problems.append("GOVERNANCE_OIDC_ISSUER needs GOVERNANCE_OIDC_CLIENT_ID")
            if (self.client_secret is None) == (self.client_secret_file is None):
                problems.append(
                    "GOVERNANCE_OIDC_ISSUER needs one of GOVERNANCE_OIDC_CLIENT_SECRET "
                    "and GOVERNANCE_OIDC_CLIENT_SECRET_FILE"
                )
            if not _https_or_loopback(self.issuer):
                problems.append("GOVERNANCE_OIDC_ISSUER must be https (http only on loopback)")
        elif not self.local_passwords:
            problems.append("GOVERNANCE_LOCAL_PASSWORDS=false needs GOVERNANCE_OIDC_ISSUER")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def _https_or_loopback(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK)


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
        "all; unset, a generated one is printed once on standard output. It must meet the "
        "password rules (docs/security.md), or the service does not start.",
    )
    session_cookie_secure: CookieSecure = env(
        "GOVERNANCE_SESSION_COOKIE_SECURE",
        "auto",
        "Whether the dashboard's session cookie is `Secure` (named `__Host-gov_session`): "
        "`auto` when the request reached the service over https, `always` behind a "
        "TLS-terminating proxy (browsers reach the service over https though it is "
        "served over http), `never` for plain http only.",
    )
    dataset_namespaces: AdapterPairs = env(
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
    history: HistorySettings = Field(default_factory=HistorySettings)
    webhooks: WebhookSettings = Field(default_factory=WebhookSettings)
    policies: PolicySettings = Field(default_factory=PolicySettings)
    observability: Observability = Field(default_factory=Observability)
    local_neo4j: LocalNeo4jSettings = Field(default_factory=LocalNeo4jSettings)
    sso: SingleSignOn = Field(default_factory=SingleSignOn)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Every field declared with `env(...)`, from its variable (`os.environ` unless
        given); `environment.SettingsError` names each variable that is wrong."""
        return environment.load(cls, os.environ if env is None else env)
