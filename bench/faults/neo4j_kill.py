"""kill -9 Neo4j while the four write workloads run, start it again, and check the
ledger against what it then holds.

Each round: a project's manifest is uploaded (its tests are the rules the round's
run-results name), one thread per workload starts sending, Neo4j is killed at a
random moment, left down for a while, started again (crash recovery), and once the
service answers /readyz again the workers stop and every request is counted.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx

from bench.common import bench_server, driver_for
from bench.faults import payloads
from bench.faults.ledger import Ledger, end_round, pause, run_workers
from service.localdb import LocalNeo4j
from tests.support.neo4j_server import Neo4jTarget
from tests.support.waiting import eventually


@contextlib.contextmanager
def killable_neo4j() -> Iterator[tuple[LocalNeo4j, Neo4jTarget]]:
    """The bench instance (GOVERNANCE_BENCH_NEO4J_NAME/PORT), which this harness kills:
    a local one only, never NEO4J_URI."""
    server = bench_server()
    info = server.start()
    try:
        yield server, Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local")
    finally:
        server.stop()


def kill_9(server: LocalNeo4j) -> int:
    pid = server.status().pid
    assert pid is not None, "Neo4j is not running"
    os.kill(pid, signal.SIGKILL)
    eventually(lambda: not server.status().running, timeout=30, what="Neo4j gone after kill -9")
    return pid


@dataclass
class Outcome:
    rounds: int = 0
    restart_s: list[float] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)


def run(
    server: LocalNeo4j,
    target: Neo4jTarget,
    url: str,
    token: str,
    rounds: int,
    seed: int,
    progress: bool = True,
) -> Outcome:
    rng = random.Random(seed)
    outcome = Outcome()
    headers = {"Authorization": f"Bearer {token}"}
    run_id = f"k{rng.getrandbits(24):06x}"
    with (
        httpx.Client(base_url=url + "/api/v1", headers=headers, timeout=90) as client,
        driver_for(target) as driver,
    ):
        for r in range(rounds):
            prefix = f"{run_id}-r{r:02d}"
            base = f"{prefix}_base".replace("-", "_")
            seeded = client.post("/lineage/manifest", json=payloads.manifest_document(base))
            seeded.raise_for_status()
            makers = payloads.round_makers(prefix, base)
            ledger = Ledger()
            stop = threading.Event()
            threads = run_workers(ledger, client, makers, stop)
            try:
                ledger.wait_acknowledged(0, timeout=120, what="before the kill")
                pause(rng.uniform(0.0, 1.5))  # the kill lands while writes are in flight
                kill_9(server)
                mark = len(ledger.entries)
                pause(rng.uniform(0.5, 3.0))  # requests meet a dead database
                started = time.monotonic()
                server.start()
                ledger.wait_acknowledged(mark, timeout=180, what="again after the restart")
                outcome.restart_s.append(time.monotonic() - started)
            finally:
                end_round(stop, threads, ledger, driver, client, outcome.ledger)
            outcome.rounds += 1
            if progress:
                bad = len(ledger.violations())
                print(
                    f"  neo4j kill round {r + 1}/{rounds}: {len(ledger.entries)} requests,"
                    f" {bad} violations",
                    flush=True,
                )
    return outcome
