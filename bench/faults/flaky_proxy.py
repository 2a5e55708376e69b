"""A proxy between the service and Bolt that slows traffic and drops connections, and
the rounds that run the write workloads through it.

Built on the tests' CuttableProxy (which refuses and drops everything at once): here
each chunk may be held back a while, `drop()` breaks the open connections while new
ones are still accepted, and `cut()`/`restore()` make the database unreachable for a
moment. Every request must be answered 2xx or 503 with Retry-After, and nothing it
wrote may be half there.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading
from dataclasses import dataclass, field

import httpx
import neo4j

from bench.faults import payloads
from bench.faults.ledger import Ledger, end_round, pause, run_workers
from tests.support.proxy import CuttableProxy


class FlakyProxy(CuttableProxy):
    def __init__(self, host: str, port: int, delay_s: float, delay_share: float, seed: int) -> None:
        super().__init__(host, port)
        self.delay_s = delay_s
        self.delay_share = delay_share
        self._rng = random.Random(seed)
        self.drops = 0

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:  # type: ignore[override]
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                if self._rng.random() < self.delay_share:
                    pause(self._rng.uniform(0, self.delay_s))  # a slow network
                dst.sendall(data)
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def drop(self) -> None:
        """Break every open connection (mid-query, mid-commit); new ones still connect."""
        with self._lock:
            conns, self._conns = self._conns, []
        for sock in conns:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.drops += 1


@dataclass
class Outcome:
    rounds: int = 0
    drops: int = 0
    cuts: int = 0
    ledger: Ledger = field(default_factory=Ledger)


def run(
    proxy: FlakyProxy,
    url: str,
    token: str,
    driver: neo4j.Driver,
    rounds: int,
    seed: int,
    progress: bool = True,
) -> Outcome:
    """Each round: workers run, connections are dropped two or three times at random
    moments, every fourth round the proxy also refuses connections for a second; then
    the workers stop and the round's requests are checked."""
    rng = random.Random(seed)
    outcome = Outcome()
    run_id = f"p{rng.getrandbits(24):06x}"
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url + "/api/v1", headers=headers, timeout=90) as client:
        for r in range(rounds):
            prefix = f"{run_id}-r{r:02d}"
            base = f"{prefix}_base".replace("-", "_")
            _eventually_ok(client, base)
            makers = payloads.round_makers(prefix, base)
            ledger = Ledger()
            stop = threading.Event()
            threads = run_workers(ledger, client, makers, stop)
            for _ in range(rng.randint(2, 3)):
                pause(rng.uniform(0.2, 1.2))
                proxy.drop()
                outcome.drops += 1
            if r % 4 == 3:
                proxy.cut()
                pause(1.0)
                proxy.restore()
                outcome.cuts += 1
            pause(1.0)
            end_round(stop, threads, ledger, driver, client, outcome.ledger)
            outcome.rounds += 1
            if progress:
                print(
                    f"  proxy round {r + 1}/{rounds}: {len(ledger.entries)} requests,"
                    f" {len(ledger.violations())} violations",
                    flush=True,
                )
    return outcome


def _eventually_ok(client: httpx.Client, project: str) -> None:
    """The round's base manifest, sent until it is acknowledged (the proxy may have
    left the driver's pool with broken connections)."""
    for _ in range(20):
        if client.post("/lineage/manifest", json=payloads.manifest_document(project)).is_success:
            return
        pause(0.5)
    raise RuntimeError(f"the base manifest {project} was never acknowledged")
