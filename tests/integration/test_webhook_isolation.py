"""Webhook receivers are kept apart: a receiver that never answers, or one that
keeps failing, delays no other receiver's deliveries; one that keeps failing is left
alone for a cooldown and then probed once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import neo4j
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import WEBHOOKS_FOR_TESTS, Tokens, client_for
from tests.support.misbehaving import BlackHole, ClockedReceiver
from tests.support.receiver import Receiver, reserved_port
from tests.support.server import LiveServer
from tests.support.waiting import eventually
from tests.support.writes import post_asset

TIMEOUT_S = 20.0  # an attempt to a black hole lasts this long
MAX_IN_FLIGHT = 2
FAILURES = 3
COOLDOWN_S = 3.0  # far longer than the retry schedule's 0.2 s
# Well under one black-hole attempt, so a delivery this prompt waited for none (the old
# dispatcher's batch waited for its slowest); loose enough for a busy machine, where a
# healthy delivery took up to 1.8 s (bench/RESULTS-webhooks.md: 1.48 s at p99).
PROMPTLY_S = TIMEOUT_S / 2
BACKLOG = 105  # events for each black hole: 315 deliveries pending on the three


@pytest.fixture(scope="module")
def dispatching(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    hooks = WEBHOOKS_FOR_TESTS.model_copy(
        update={
            "dispatch": True,
            "timeout_s": TIMEOUT_S,
            "retry_schedule": (0.2,) * 20,
            "max_in_flight_per_receiver": MAX_IN_FLIGHT,
            "breaker_failures": FAILURES,
            "breaker_cooldown_s": COOLDOWN_S,
        }
    )
    server = LiveServer(create_app(make_settings(webhooks=hooks))).start()
    yield server
    server.stop()


@pytest.fixture
def admin(dispatching: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(dispatching, tokens.admin) as client:
        yield client


def _hook(admin: httpx.Client, url: str) -> str:
    response = admin.post("/webhooks", json={"url": url, "types": ["asset.created"]})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def _pending(driver: neo4j.Driver, hook_ids: list[str]) -> int:
    records = driver.execute_query(
        "MATCH (d:Delivery {state: 'pending'}) WHERE d.webhook_id IN $ids RETURN count(d) AS n",
        ids=hook_ids,
    ).records
    return int(records[0]["n"])


def test_a_healthy_receiver_is_served_promptly_while_black_holes_hold_300_deliveries(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    with (
        reserved_port() as refusing,
        BlackHole() as one,
        BlackHole() as two,
        BlackHole() as three,
        Receiver() as healthy,
    ):
        holes = [one, two, three]
        stuck = [_hook(admin, hole.url) for hole in holes]
        _hook(admin, f"http://127.0.0.1:{refusing.getsockname()[1]}/hook")
        with ThreadPoolExecutor(4) as writers:
            list(writers.map(lambda i: post_asset(admin, f"backlog-{i}"), range(BACKLOG)))
        eventually(
            lambda: _pending(driver, stuck) >= 3 * BACKLOG,
            timeout=30,
            what="the backlog fanned out to the black holes",
        )
        for hole in holes:  # each holds as many attempts as it may, unanswered
            hole.wait_for(MAX_IN_FLIGHT)
        _hook(admin, healthy.url)
        lags = []
        for i in range(10):
            written = time.monotonic()
            post_asset(admin, f"fresh-{i}")
            healthy.wait_for(i + 1, timeout=PROMPTLY_S)
            lags.append(time.monotonic() - written)
        still_pending = _pending(driver, stuck)
    assert still_pending >= 300, "the black holes' backlog drained: the test proved nothing"
    assert max(lags) < PROMPTLY_S, lags


def test_a_failing_receiver_is_left_alone_for_the_cooldown_then_probed_once(
    admin: httpx.Client,
) -> None:
    # The breaker opens at the FAILURES-th failure at the latest; by then at most
    # MAX_IN_FLIGHT - 1 more attempts are under way, so the next one is a probe.
    first_probe = FAILURES + MAX_IN_FLIGHT - 1  # its index among the arrivals
    with ClockedReceiver(status=500) as receiver:
        hook_id = _hook(admin, receiver.url)
        for i in range(10):
            post_asset(admin, f"failing-{i}")
        arrivals = receiver.wait_for(first_probe + 2, timeout=4 * COOLDOWN_S + 15)
        receiver.status = 200

        def delivered() -> list[dict[str, Any]]:
            log = admin.get(f"/webhooks/{hook_id}/deliveries").json()["items"]
            assert len(log) == 10 and all(d["state"] == "delivered" for d in log), log
            return list(log)

        log = eventually(delivered, timeout=2 * COOLDOWN_S + 15, what="the receiver recovered")
    quiet = arrivals[first_probe] - arrivals[FAILURES - 1]
    between_probes = arrivals[first_probe + 1] - arrivals[first_probe]
    assert quiet >= 0.9 * COOLDOWN_S, arrivals
    assert between_probes >= 0.9 * COOLDOWN_S, arrivals
    assert sum(d["attempts"] for d in log) == len(receiver.arrivals), "an attempt unrecorded"
