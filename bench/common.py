"""What every benchmark shares: a Neo4j to run on, the service under uvicorn in its
own process, the raw driver beside it, medians and a results file."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import platform
import statistics
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import neo4j

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.readiness import PatientService  # noqa: E402
from tests.support.neo4j_server import Neo4jTarget  # noqa: E402
from tests.support.process import LOGS  # noqa: E402
from tests.support.server import loopback_listener  # noqa: E402

if TYPE_CHECKING:
    from service.localdb import LocalNeo4j

BENCH_INSTANCE = "bench"
BENCH_PORT = 17695


@contextlib.contextmanager
def bench_neo4j(
    name: str = BENCH_INSTANCE, port: int = BENCH_PORT, memory: str = "2g"
) -> Iterator[Neo4jTarget]:
    """NEO4J_URI if set, else a local instance of its own, by default with room for
    100k assets (GOVERNANCE_BENCH_NEO4J_NAME/PORT pick another, to run two benchmarks
    at once)."""
    if os.environ.get("NEO4J_URI"):
        yield Neo4jTarget(
            os.environ["NEO4J_URI"],
            os.environ.get("NEO4J_USERNAME", "neo4j"),
            os.environ.get("NEO4J_PASSWORD", ""),
            os.environ.get("NEO4J_DATABASE", "neo4j"),
            "NEO4J_URI",
        )
        return
    server = bench_server(name, port, memory)
    info = server.start()
    try:
        yield Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local")
    finally:
        if not os.environ.get("GOVERNANCE_KEEP_TEST_NEO4J"):
            server.stop()


def bench_server(
    name: str = BENCH_INSTANCE, port: int = BENCH_PORT, memory: str = "2g"
) -> LocalNeo4j:
    """The local instance benchmarks run on (GOVERNANCE_BENCH_NEO4J_NAME/PORT pick
    another); `memory` is its heap and its page cache each (2g: room for a million
    assets)."""
    from service.localdb import LocalNeo4j, default_cache_dir

    return LocalNeo4j(
        default_cache_dir(),
        name=os.environ.get("GOVERNANCE_BENCH_NEO4J_NAME", name),
        bolt_port=int(os.environ.get("GOVERNANCE_BENCH_NEO4J_PORT", port)),
        heap=memory,
        pagecache=memory,
    )


@dataclass
class Service:
    url: str
    token: str
    process: subprocess.Popen[bytes]

    def peak_rss_mib(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def lean_client(self) -> LeanClient:
        """A keep-alive connection with next to no client-side cost, for timing requests
        (httpx spends about half a millisecond of its own on each)."""
        return LeanClient(self.url, self.token)

    def client(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.url + "/api/v1",
            timeout=600,
            headers={"Authorization": f"Bearer {self.token}"},
        )


class LeanClient:
    def __init__(self, url: str, token: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self._connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=600)
        self._headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        self.timing: dict[str, float] = {}  # the last answer's Server-Timing, in ms

    def get(self, path: str) -> tuple[int, bytes]:
        """GET /api/v1 + path (query included): the status and the body."""
        self._connection.request("GET", "/api/v1" + path, headers=self._headers)
        response = self._connection.getresponse()
        self.timing = server_timing(response.getheader("server-timing") or "")
        return response.status, response.read()

    def __enter__(self) -> LeanClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self._connection.close()


@contextlib.contextmanager
def app_process(
    module: str, token: str = "", env: dict[str, str] | None = None
) -> Iterator[LeanClient]:
    """A keep-alive connection, with `token`, to `python -m module FD` serving an app
    on the inherited listening socket FD in its own process. The socket listens before
    the process starts, so the first request waits in its backlog: no polling."""
    listener = loopback_listener()
    fd = listener.fileno()
    process = subprocess.Popen(
        [sys.executable, "-m", module, str(fd)],
        cwd=ROOT,
        pass_fds=(fd,),
        env={**os.environ, **(env or {})},
    )
    try:
        with LeanClient(f"http://127.0.0.1:{listener.getsockname()[1]}", token) as client:
            yield client
    finally:
        process.terminate()
        process.wait(30)
        listener.close()


def server_timing(header: str) -> dict[str, float]:
    """`db;dur=1.2, total;dur=3.4` as {"db": 1.2, "total": 3.4}."""
    found = {}
    for metric in filter(None, (part.strip() for part in header.split(","))):
        name, _, params = metric.partition(";")
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "dur":
                found[name] = float(value)
    return found


@contextlib.contextmanager
def running_service(target: Neo4jTarget) -> Iterator[Service]:
    env = {"GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000", "GOVERNANCE_RATE_LIMIT_BURST": "100000"}
    log = LOGS / "bench-service.log"
    # ready when /readyz says so, however long that takes while the service gets there
    with PatientService(target, env, log).start() as service:
        assert service.process is not None
        yield Service(service.url, service.admin_token("bench"), service.process)


def driver_for(target: Neo4jTarget) -> neo4j.Driver:
    return neo4j.GraphDatabase.driver(
        target.uri, auth=(target.username, target.password), notifications_min_severity="OFF"
    )


def clear_graph(driver: neo4j.Driver) -> None:
    """Assets and their edges (not the tokens), 1,000 assets a transaction until none is
    left: an asset's edges may carry a model's SQL, so larger batches can pass a
    transaction's memory cap, and one statement over a million assets (even `CALL … IN
    TRANSACTIONS`, whose outer statement is one transaction) passes the local
    instance's transaction timeout."""
    with driver.session() as session:
        while True:
            deleted = session.run(
                "MATCH (n:Asset) WITH n LIMIT 1000 DETACH DELETE n RETURN count(*) AS deleted"
            ).single(strict=True)["deleted"]
            if not deleted:
                return


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def environment() -> dict[str, str]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "neo4j driver": neo4j.__version__,
        "java": java[0] if java else "unknown",
    }


SUMMARIES = Path(__file__).parent / "results"


@dataclass(frozen=True)
class Figure:
    """One headline figure of a benchmark, with the target it is held to (if any)."""

    name: str
    value: float
    unit: str
    target: str = ""  # e.g. "<= 1.2", ">= 0.85"; empty for a figure without one

    @property
    def met(self) -> bool | None:
        if not self.target:
            return None
        op, _, bound = self.target.partition(" ")
        limit = float(bound)
        return self.value <= limit if op == "<=" else self.value >= limit


def write_summary(
    benchmark: str, details: str, figures: list[Figure], plots: list[str] | None = None
) -> None:
    """Leave the benchmark's headline figures for `bench.report`, which writes
    bench/RESULTS.md from every benchmark's summary. `details` and `plots` are paths
    relative to bench/."""
    SUMMARIES.mkdir(exist_ok=True)
    payload = {
        "benchmark": benchmark,
        "details": details,
        "plots": plots or [],
        "environment": environment(),
        "figures": [
            {"name": f.name, "value": f.value, "unit": f.unit, "target": f.target, "met": f.met}
            for f in figures
        ],
    }
    (SUMMARIES / f"{benchmark}.json").write_text(json.dumps(payload, indent=2) + "\n")
