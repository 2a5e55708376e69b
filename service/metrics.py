"""The service's Prometheus series, on a registry of its own per app.

Every label takes values from a bounded set: route templates (never raw paths),
named Cypher statements, Neo4j status codes, outcome words. An id never becomes a
label value. docs/observability.md lists every series with its labels.

Under `governance serve --workers N` a scrape reaches whichever worker accepts it,
so the workers share their series through prometheus_client's multiprocess mode:
the supervisor names an empty directory in `PROMETHEUS_MULTIPROC_DIR` before it
starts them, each worker's values live in files there, and a scrape adds up every
worker's counters and histograms. Gauges say how they combine (`livesum`: the
subscriber count; `mostrecent`: the outbox positions, read from Neo4j and the same
everywhere). The process, GC and platform series describe one process, so they are
left out there rather than shown for whichever worker answered. A worker that
stops removes its live values; one that was killed cannot, so the worker that
replaces it removes those of every worker no longer running when it starts.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from neo4j.exceptions import DriverError, Neo4jError
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from service.driver_errors import from_driver_error

PREFIX = "governance_"
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
SLOW = (0.01, 0.05, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)
LAG = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 1800.0, 3600.0, 21600.0, 86400.0)
BYTES = tuple(float(4**n) * 1024 for n in range(1, 10))  # 4 KiB .. 256 MiB, times four
SHARED_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client reads it when first imported

Combined = Literal["livesum", "mostrecent"]
# prometheus_client's file of one process's live gauges (`gauge_livesum_<pid>.db`).
_LIVE_FILE = re.compile(r"gauge_live[a-z]+_(\d+)\.db")


class Metrics:
    def __init__(self) -> None:
        self.shared = bool(os.environ.get(SHARED_DIR))  # a worker of `--workers N`
        self.registry = CollectorRegistry()
        if not self.shared:
            ProcessCollector(registry=self.registry)
            GCCollector(registry=self.registry)
            PlatformCollector(registry=self.registry)
        else:
            _forget_dead_workers(Path(os.environ[SHARED_DIR]))
        # Requests
        self.requests = self._counter(
            "http_requests", "HTTP requests answered.", "method", "route", "status"
        )
        self.latency = self._histogram(
            "http_request_duration_seconds", "Time to answer an HTTP request.", "method", "route"
        )
        # Neo4j
        self.statements = self._histogram(
            "neo4j_statement_duration_seconds",
            "Time to run one named Cypher statement and read its records.",
            "statement",
            buckets=FAST,
        )
        self.neo4j_errors = self._counter(
            "neo4j_errors",
            "Neo4j driver errors that reached the service, by what clients were told.",
            "kind",
            "error",
        )
        # The outbox and who follows it
        self.outbox_newest = self._gauge(
            "outbox_newest_seq", "Sequence number of the newest event in the outbox.", "mostrecent"
        )
        self.outbox_position = self._gauge(
            "outbox_consumer_seq",
            "The newest event each outbox consumer has acted on.",
            "mostrecent",
            "consumer",
        )
        self.outbox_lag = self._gauge(
            "outbox_lag_events",
            "Events in the outbox a consumer has not acted on yet.",
            "mostrecent",
            "consumer",
        )
        self.sse_subscribers = self._gauge(
            "sse_subscribers",
            "Live event streams (API and dashboard) the service is serving.",
            "livesum",
        )
        self.webhook_deliveries = self._counter(
            "webhook_deliveries", "Webhook delivery attempts, by what became of them.", "outcome"
        )
        self.webhook_lag = self._histogram(
            "webhook_delivery_lag_seconds",
            "Time from an event to each attempt to deliver it.",
            buckets=LAG,
        )
        # Policies, credentials, ingestion
        self.policy_evaluation = self._histogram(
            "policy_evaluation_duration_seconds",
            "Time to evaluate one policy in the background evaluator.",
            buckets=SLOW,
        )
        self.auth_failures = self._counter(
            "auth_failures", "Refused credentials, by where and why.", "channel", "reason"
        )
        self.ingest_bytes = self._histogram(
            "ingest_request_bytes",
            "Size of an ingestion request body as received (compressed if sent so).",
            "kind",
            buckets=BYTES,
        )
        self.ingest_duration = self._histogram(
            "ingest_duration_seconds",
            "Time to answer an ingestion request.",
            "kind",
            "outcome",
            buckets=SLOW,
        )

    def _counter(self, name: str, doc: str, *labels: str) -> Counter:
        return Counter(PREFIX + name, doc, labels, registry=self.registry)

    def _gauge(self, name: str, doc: str, combined: Combined, *labels: str) -> Gauge:
        """`combined`: how the workers' values make one under `--workers N`."""
        return Gauge(PREFIX + name, doc, labels, registry=self.registry, multiprocess_mode=combined)

    def scrape_registry(self) -> CollectorRegistry:
        """What a scrape reads: this process's registry, or every worker's series."""
        if not self.shared:
            return self.registry
        combined = CollectorRegistry()
        multiprocess.MultiProcessCollector(combined)  # type: ignore[no-untyped-call]
        return combined

    def close(self) -> None:
        """A worker that stops drops out of the live gauges (its counters stay counted)."""
        if self.shared:
            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]

    def _histogram(
        self, name: str, doc: str, *labels: str, buckets: tuple[float, ...] = FAST
    ) -> Histogram:
        return Histogram(PREFIX + name, doc, labels, buckets=buckets, registry=self.registry)

    def statement(self, name: str, seconds: float) -> None:
        """One named statement ran (`service.graph` calls this)."""
        self.statements.labels(name).observe(seconds)

    def driver_error(self, exc: Exception) -> None:
        """An exception left a Neo4j call; only driver errors are counted."""
        if not isinstance(exc, Neo4jError | DriverError | ConnectionError | TimeoutError):
            return
        mapped = from_driver_error(exc)
        kind = mapped.code if mapped is not None else "unmapped"
        code = exc.code if isinstance(exc, Neo4jError) else None
        self.neo4j_errors.labels(kind, code or type(exc).__name__).inc()

    def outbox(self, newest: int, positions: dict[str, int | None]) -> None:
        self.outbox_newest.set(newest)
        for consumer, seq in positions.items():
            if seq is not None:
                self.outbox_position.labels(consumer).set(seq)
                self.outbox_lag.labels(consumer).set(max(0, newest - seq))


def _forget_dead_workers(directory: Path) -> None:
    """Remove the live gauges of workers that are no longer running (killed, so their
    `close` never ran); their counters and histograms stay counted."""
    for path in directory.iterdir():
        found = _LIVE_FILE.fullmatch(path.name)
        if found and not _running(int(found[1])):
            # as prometheus_client's mark_process_dead does, but two replacements
            # starting at once may both find the file: the second finds it gone
            path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a process of another user holds the number now: not ours to judge
    return True
