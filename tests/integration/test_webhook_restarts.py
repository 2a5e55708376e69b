"""Pending webhook deliveries survive a kill -9 of the service that dispatched them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.conftest import Tokens
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import ServiceProcess
from tests.support.receiver import Receiver, reserved_port
from tests.support.waiting import eventually

ENV = {
    "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE": "true",
    # The first process makes one attempt at each delivery, all refused: the fifth
    # failure in a row opens the receiver's breaker, and no attempt is under way (and
    # so none claimed) at the kill. That takes each delivery's first attempt to come
    # before any second one: the first retry waits 10 s (at least 8 with the jitter),
    # far longer than five POSTs take; the retries after it are quick, for the second
    # process, which starts with its breakers closed.
    "GOVERNANCE_WEBHOOK_RETRY_SCHEDULE": ",".join(["10"] + ["0.5"] * 10),
    "GOVERNANCE_WEBHOOK_BREAKER_FAILURES": "5",
    "GOVERNANCE_WEBHOOK_BREAKER_COOLDOWN": "3600",
    "GOVERNANCE_WEBHOOK_POLL_INTERVAL": "0.1",
    # The killed process's lease is what the second one waits out before it dispatches:
    # 3 s rather than the deployed 15 s, still 30 looks for work per lease.
    "GOVERNANCE_WEBHOOK_LEASE_TTL": "3",
}


def test_deliveries_pending_at_a_kill_are_delivered_after_restart(
    neo4j_target: Neo4jTarget, tokens: Tokens, tmp_path: Path
) -> None:
    down = reserved_port()  # the receiver is down at first: every attempt is refused
    first = ServiceProcess(neo4j_target, ENV, tmp_path / "first.log").start()
    try:
        with httpx.Client(
            base_url=first.url + "/api/v1", headers={"Authorization": f"Bearer {tokens.admin}"}
        ) as client:
            url = f"http://127.0.0.1:{down.getsockname()[1]}/hook"
            hook = client.post("/webhooks", json={"url": url, "types": ["asset.created"]}).json()
            for i in range(5):
                client.post("/assets", json={"id": f"k{i}", "name": "n", "type": "table"})

            def every_one_attempted() -> list[dict[str, Any]]:
                response = client.get(f"/webhooks/{hook['id']}/deliveries")
                log: list[dict[str, Any]] = response.json()["items"]
                assert len(log) == 5 and all(d["attempts"] >= 1 for d in log), log
                return log

            log = eventually(every_one_attempted, timeout=20)
        assert all(d["state"] == "pending" and d["attempts"] == 1 for d in log), log
    finally:
        first.kill()
    with Receiver(on=down) as receiver:
        second = ServiceProcess(neo4j_target, ENV, tmp_path / "second.log").start()
        try:
            received = receiver.wait_for(5, timeout=40)  # the dead holder's lease expires first
        finally:
            second.stop()
    ids = sorted(httpx.Response(200, content=r.body).json()["data"]["id"] for r in received)
    assert ids[:5] == [f"k{i}" for i in range(5)] and len(set(ids)) == 5
