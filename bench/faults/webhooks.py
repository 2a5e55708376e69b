"""kill -9 the service while webhook deliveries are pending, start another, and count
what the receiver gets: every event delivered (none lost), duplicates by event id.

Rounds alternate two shapes: the receiver is down at first (every delivery has been
attempted and failed when the kill lands), or it is up but slow (some deliveries are
done, some in flight, some not started). The restarted process takes the dispatch
over once the dead one's lease expires (15 s) and becomes the next round's victim.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.faults.receiver import DedupingReceiver
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, ServiceProcess
from tests.support.receiver import reserved_port
from tests.support.waiting import eventually

ENV = {
    "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
    "GOVERNANCE_WEBHOOK_RETRY_SCHEDULE": ",".join(["0.5"] * 60),
    "GOVERNANCE_WEBHOOK_POLL_INTERVAL": "0.1",
    "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
    "GOVERNANCE_RATE_LIMIT_BURST": "100000",
}
EVENTS_PER_ROUND = 10
SLOW_RECEIVER_S = 0.3


@dataclass
class Round:
    shape: str
    events: int
    delivered_before_kill: int
    delivered: int
    lost: int
    duplicates: int
    seconds_to_all: float


@dataclass
class Outcome:
    rounds: list[Round] = field(default_factory=list)


def service(target: Neo4jTarget, n: int) -> ServiceProcess:
    return ServiceProcess(target, ENV, LOGS / f"faults-webhooks-{n}.log").start(timeout=120)


def run(
    target: Neo4jTarget,
    token: str,
    rounds: int,
    progress: bool = True,
    first: ServiceProcess | None = None,
) -> Outcome:
    outcome = Outcome()
    current = first or service(target, 0)
    try:
        for r in range(rounds):
            shape = "receiver down" if r % 2 == 0 else "receiver slow"
            current, result = _round(target, token, current, r, shape)
            outcome.rounds.append(result)
            if progress:
                print(
                    f"  webhook round {r + 1}/{rounds} ({shape}): {result.delivered}/"
                    f"{result.events} delivered, {result.duplicates} duplicates",
                    flush=True,
                )
    finally:
        current.stop()
    return outcome


def _client(url: str, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=url + "/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=60
    )


def _round(
    target: Neo4jTarget, token: str, victim: ServiceProcess, r: int, shape: str
) -> tuple[ServiceProcess, Round]:
    port = reserved_port()
    hook_url = f"http://127.0.0.1:{port.getsockname()[1]}/hook"
    ids = [f"wh-{time.time_ns():x}-{r:02d}-{i}" for i in range(EVENTS_PER_ROUND)]
    receiver = DedupingReceiver(port, SLOW_RECEIVER_S if shape == "receiver slow" else 0.0)
    if shape == "receiver slow":
        receiver.__enter__()
    try:
        with _client(victim.url, token) as client:
            hook = client.post("/webhooks", json={"url": hook_url, "types": ["asset.created"]})
            hook.raise_for_status()
            hook_id = hook.json()["id"]
            for asset_id in ids:
                created = client.post(
                    "/assets", json={"id": asset_id, "name": "n", "type": "table"}
                )
                created.raise_for_status()
            _until_mid_delivery(client, hook_id, receiver, shape)
        before = len(receiver.delivered())
        victim.kill()
        if shape == "receiver down":
            receiver.__enter__()
        started = time.monotonic()
        successor = service(target, r + 1)
        with _client(successor.url, token) as client:
            with contextlib.suppress(AssertionError):  # what is missing is counted as lost
                eventually(
                    lambda: receiver.delivered() >= set(ids),
                    timeout=120,
                    interval=0.2,
                    what=f"all {len(ids)} events delivered after the restart",
                )
            took = time.monotonic() - started
            # A delivery the dead process had in flight stays claimed by it for a while,
            # then is sent again: the receiver stays up until the log has settled, so
            # such repeats are counted as duplicates.
            with contextlib.suppress(AssertionError):
                eventually(
                    lambda: _settled(client, hook_id),
                    timeout=150,
                    interval=0.5,
                    what="every delivery settled",
                )
            client.delete(f"/webhooks/{hook_id}")
    finally:
        receiver.__exit__()
    delivered = receiver.delivered() & set(ids)
    return successor, Round(
        shape,
        len(ids),
        before,
        len(delivered),
        len(ids) - len(delivered),
        receiver.duplicates(),
        took,
    )


def _settled(client: httpx.Client, hook_id: str) -> bool:
    items = client.get(f"/webhooks/{hook_id}/deliveries").json()["items"]
    return len(items) == EVENTS_PER_ROUND and all(d["state"] != "pending" for d in items)


def _until_mid_delivery(
    client: httpx.Client, hook_id: str, receiver: DedupingReceiver, shape: str
) -> None:
    """Down: every delivery attempted at least once. Slow: some delivered, not all."""
    check: Callable[[], Any]
    if shape == "receiver down":

        def check() -> bool:
            items = client.get(f"/webhooks/{hook_id}/deliveries").json()["items"]
            return len(items) == EVENTS_PER_ROUND and all(d["attempts"] >= 1 for d in items)
    else:

        def check() -> bool:
            return len(receiver.delivered()) >= 2

    eventually(check, timeout=60, what=f"deliveries under way ({shape})")


def log_paths() -> list[Path]:
    return sorted(LOGS.glob("faults-webhooks-*.log"))
