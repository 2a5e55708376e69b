"""Configuration from the environment.

Neo4j keeps its own variable names (`NEO4J_URI`, ...) so that the service reads
the same settings as every other Neo4j tool; the service's own knobs are
`GOVERNANCE_*`. Secrets are `SecretStr` so they never print by accident.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr

MIB = 1024 * 1024


class Limits(BaseModel):
    model_config = ConfigDict(frozen=True)

    max_body_bytes: int = 10 * MIB
    max_manifest_bytes: int = 256 * MIB
    max_bulk_edges: int = 10_000
    max_lineage_depth: int = 50
    default_lineage_depth: int = 5
    max_lineage_nodes: int = 10_000
    default_lineage_nodes: int = 2_000
    max_page_size: int = 500
    default_page_size: int = 50
    query_timeout_s: float = 10.0
    max_json_depth: int = 200
    # Results each quality rule keeps (newest first); older ones are dropped.
    quality_history: int = 100


class EventSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # How often each process looks for new events in the outbox (live streams).
    poll_interval_s: float = 0.25
    heartbeat_s: float = 15.0
    # Events a stream may fall behind by before it is disconnected.
    subscriber_buffer: int = 1_000
    retention_days: int = 30


class WebhookSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # Whether this process takes part in dispatch (one process at a time leads).
    dispatch: bool = True
    allow_private: bool = False
    timeout_s: float = 15.0
    # Seconds after the 1st, 2nd, ... failure (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h).
    retry_schedule: tuple[float, ...] = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 86400.0)
    disable_after_s: float = 86400.0
    poll_interval_s: float = 1.0
    lease_ttl_s: float = 15.0


class PolicySettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # Whether this process re-evaluates policies after changes (one process at a time leads).
    evaluate: bool = True
    # Quiet time after the last change before evaluating, and the longest a change waits.
    debounce_s: float = 1.0
    max_delay_s: float = 10.0
    lease_ttl_s: float = 15.0
    # One policy's evaluation may take this long (it walks the whole governed graph).
    timeout_s: float = 300.0


class RateLimit(BaseModel):
    model_config = ConfigDict(frozen=True)

    per_second: float = 100.0
    burst: int = 200
    auth_failures_per_minute: int = 30
    # Failed dashboard sign-ins per username per minute (per client address, the above).
    sign_in_failures_per_minute: int = 5


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True)

    neo4j_uri: str | None = None
    neo4j_username: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("")
    neo4j_database: str = "neo4j"
    # How long a request waits for a Neo4j connection before answering 503.
    neo4j_connect_timeout_s: float = 3.0
    host: str = "127.0.0.1"
    port: int = 8080
    cors_origins: tuple[str, ...] = ()
    # The first admin's password when the service starts with no user; when unset, a
    # generated one is printed once on standard output.
    admin_password: SecretStr | None = None
    limits: Limits = Field(default_factory=Limits)
    rate_limit: RateLimit = Field(default_factory=RateLimit)
    events: EventSettings = Field(default_factory=EventSettings)
    webhooks: WebhookSettings = Field(default_factory=WebhookSettings)
    policies: PolicySettings = Field(default_factory=PolicySettings)

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
            ),
            limits=Limits(
                max_body_bytes=g.int("GOVERNANCE_MAX_BODY_BYTES", 10 * MIB),
                max_manifest_bytes=g.int("GOVERNANCE_MAX_MANIFEST_BYTES", 256 * MIB),
                max_bulk_edges=g.int("GOVERNANCE_MAX_BULK_EDGES", 10_000),
                max_lineage_depth=g.int("GOVERNANCE_MAX_LINEAGE_DEPTH", 50),
                max_lineage_nodes=g.int("GOVERNANCE_MAX_LINEAGE_NODES", 10_000),
                query_timeout_s=g.float("GOVERNANCE_QUERY_TIMEOUT", 10.0),
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

    def secret(self, name: str) -> SecretStr | None:
        raw = self._env.get(name)
        return SecretStr(raw) if raw else None
