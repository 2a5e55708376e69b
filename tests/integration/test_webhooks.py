"""Webhooks: CRUD, signed at-least-once delivery, retries, disabling,
and the SSRF rules."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpcore
import httpx
import neo4j
import orjson
import pytest
from standardwebhooks import Webhook

from service.app import create_app
from service.events.delivery import GuardedBackend
from service.settings import Settings
from tests.conftest import WEBHOOKS_FOR_TESTS, Tokens, client_for
from tests.support.progress import WEBHOOK_DISPATCHER, caught_up
from tests.support.receiver import Receiver
from tests.support.server import LiveServer
from tests.support.waiting import eventually
from tests.support.writes import post_asset


@pytest.fixture(scope="module")
def dispatching(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    """This module's service: the one process that dispatches webhooks."""
    hooks = WEBHOOKS_FOR_TESTS.model_copy(update={"dispatch": True})
    server = LiveServer(create_app(make_settings(webhooks=hooks))).start()
    yield server
    server.stop()


@pytest.fixture
def admin(dispatching: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(dispatching, tokens.admin) as client:
        yield client


@pytest.fixture
def writer(dispatching: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    with client_for(dispatching, tokens.write) as client:
        yield client


def _hook(admin: httpx.Client, url: str, types: list[str] | None = None) -> dict[str, Any]:
    response = admin.post("/webhooks", json={"url": url, **({"types": types} if types else {})})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _wait(predicate: Callable[[], bool], timeout: float = 15) -> None:
    eventually(predicate, timeout=timeout, what="the webhook's delivery state")


def test_crud_shows_the_secret_once(admin: httpx.Client, writer: httpx.Client) -> None:
    made = _hook(admin, "http://127.0.0.1:9/hook", ["asset.*"])
    assert made["id"].startswith("whk_") and made["secret"].startswith("whsec_")
    assert made["types"] == ["asset.*"] and made["enabled"] is True
    fetched = admin.get(f"/webhooks/{made['id']}").json()
    assert "secret" not in fetched
    assert [w["id"] for w in admin.get("/webhooks").json()["items"]] == [made["id"]]
    patched = admin.patch(
        f"/webhooks/{made['id']}", json={"enabled": False, "types": ["lineage.*"]}
    ).json()
    assert patched["enabled"] is False and patched["types"] == ["lineage.*"]
    assert admin.delete(f"/webhooks/{made['id']}").status_code == 204
    assert admin.get(f"/webhooks/{made['id']}").status_code == 404
    assert writer.get("/webhooks").status_code == 403


def test_invalid_webhooks_are_422_naming_the_field(admin: httpx.Client) -> None:
    for body, loc in (
        ({"url": "ftp://x/y"}, ["body", "url"]),
        ({"url": "http://127.0.0.1/x", "types": ["nope"]}, ["body", "types"]),
        ({"types": ["asset.*"]}, ["body", "url"]),
        ({"url": "http://127.0.0.1/x", "enabled": "yes"}, ["body", "enabled"]),
    ):
        response = admin.post("/webhooks", json=body)
        assert response.status_code == 422, body
        assert response.json()["errors"][0]["loc"] == loc
    made = _hook(admin, "http://127.0.0.1:9/hook")
    assert admin.patch(f"/webhooks/{made['id']}", json={"url": "gopher://x"}).status_code == 422
    assert admin.patch(f"/webhooks/{made['id']}", json={"url": None}).status_code == 422


def test_events_are_delivered_signed_with_the_event_id(
    admin: httpx.Client, writer: httpx.Client
) -> None:
    with Receiver() as receiver:
        made = _hook(admin, receiver.url, ["asset.*"])
        post_asset(writer, "hooked")
        writer.post("/lineage", json={"source": "hooked", "target": "other"})  # not subscribed
        delivery = receiver.wait_for(1)[0]
    envelope = Webhook(made["secret"]).verify(delivery.body, delivery.headers)
    assert envelope["type"] == "asset.created" and envelope["data"]["id"] == "hooked"
    assert delivery.headers["webhook-id"] == envelope["id"]
    _wait(
        lambda: (
            admin.get(f"/webhooks/{made['id']}/deliveries").json()["items"][0]["state"]
            == "delivered"
        )
    )
    log = admin.get(f"/webhooks/{made['id']}/deliveries").json()["items"]
    assert len(log) == 1 and log[0]["attempts"] == 1 and log[0]["last_status"] == 200
    assert "receiver-body" not in str(log)


def test_a_failing_receiver_is_retried_with_the_same_id_until_it_recovers(
    admin: httpx.Client, writer: httpx.Client
) -> None:
    answers = [(500, {}), (503, {"Retry-After": "1"}), (200, {})]
    with Receiver(answers) as receiver:
        made = _hook(admin, receiver.url, ["asset.created"])
        started = time.monotonic()
        post_asset(writer, "flaky")
        attempts = receiver.wait_for(3)
        elapsed = time.monotonic() - started
    assert len({a.headers["webhook-id"] for a in attempts}) == 1
    assert elapsed >= 1.0, "Retry-After was not honoured"
    for attempt in attempts:
        Webhook(made["secret"]).verify(attempt.body, attempt.headers)
    _wait(
        lambda: (
            admin.get(f"/webhooks/{made['id']}/deliveries").json()["items"][0]["state"]
            == "delivered"
        )
    )
    entry = admin.get(f"/webhooks/{made['id']}/deliveries").json()["items"][0]
    assert entry["attempts"] == 3
    assert admin.get(f"/webhooks/{made['id']}").json()["failing_since"] is None


def test_410_disables_at_once_with_an_event(admin: httpx.Client, writer: httpx.Client) -> None:
    with Receiver([(410, {})]) as receiver:
        made = _hook(admin, receiver.url, ["asset.*"])
        post_asset(writer, "gone")
        receiver.wait_for(1)
        _wait(lambda: admin.get(f"/webhooks/{made['id']}").json()["enabled"] is False)
    hook = admin.get(f"/webhooks/{made['id']}").json()
    assert "410" in hook["disabled_reason"]
    events = admin.get("/events", params={"types": "webhook.disabled"}).json()["items"]
    assert events[-1]["data"] == {"webhook_id": made["id"], "reason": hook["disabled_reason"]}


def test_the_test_endpoint_sends_a_signed_test_event_and_hides_the_answer(
    admin: httpx.Client,
) -> None:
    with Receiver([(200, {}), (500, {})]) as receiver:
        made = _hook(admin, receiver.url)
        ok = admin.post(f"/webhooks/{made['id']}/test").json()
        failed = admin.post(f"/webhooks/{made['id']}/test").json()
        got = receiver.wait_for(2)
    assert ok["delivered"] is True and ok["status"] == 200
    assert failed["delivered"] is False and failed["status"] == 500
    assert "receiver-body" not in str(failed)
    assert Webhook(made["secret"]).verify(got[0].body, got[0].headers)["type"] == "webhook.test"
    assert admin.post("/webhooks/whk_missing/test").status_code == 404


def test_a_webhook_failing_for_a_day_is_disabled_with_an_event(
    admin: httpx.Client, writer: httpx.Client, driver: neo4j.Driver
) -> None:
    """Failing since a day ago (back-dated here rather than waited for): the next
    failed attempt disables the webhook and says so in a webhook.disabled event."""
    with Receiver() as receiver:
        receiver.default = (500, {})
        made = _hook(admin, receiver.url, ["asset.*"])
        post_asset(writer, "never")
        _wait(lambda: admin.get(f"/webhooks/{made['id']}").json()["failing_since"] is not None)
        driver.execute_query(
            "MATCH (w:Webhook {id: $id}) SET w.failing_since = '2000-01-01T00:00:00.000Z'",
            id=made["id"],
        )
        _wait(lambda: admin.get(f"/webhooks/{made['id']}").json()["enabled"] is False)
    hook = admin.get(f"/webhooks/{made['id']}").json()
    assert hook["disabled_reason"] == "deliveries failed for too long"
    events = admin.get("/events", params={"types": "webhook.disabled"}).json()["items"]
    assert events[-1]["data"]["webhook_id"] == made["id"]
    entry = admin.get(f"/webhooks/{made['id']}/deliveries").json()["items"][0]
    assert entry["state"] in ("cancelled", "failed") and entry["last_status"] == 500


def test_every_event_is_delivered_once_with_two_processes(
    make_settings: Callable[..., Settings],
    live: LiveServer,
    admin: httpx.Client,
    writer: httpx.Client,
    driver: neo4j.Driver,
) -> None:
    hooks = WEBHOOKS_FOR_TESTS.model_copy(update={"dispatch": True})
    other = LiveServer(create_app(make_settings(webhooks=hooks))).start()
    try:
        with Receiver() as receiver:
            made = _hook(admin, receiver.url, ["asset.created"])
            for i in range(20):
                post_asset(writer, f"twice-{i}")
            received = receiver.wait_for(20)
            # Every event fanned out and every delivery recorded as done: a second
            # delivery of any of them would have been sent before its record.
            _wait(
                lambda: (
                    caught_up(driver, WEBHOOK_DISPATCHER)
                    and _states(admin, made["id"]) == ["delivered"] * 20
                )
            )
            ids = [orjson.loads(r.body)["data"]["id"] for r in receiver.received]
    finally:
        other.stop()
    assert sorted(ids) == sorted(f"twice-{i}" for i in range(20))
    assert len(received) == 20


def _states(admin: httpx.Client, hook_id: str) -> list[str]:
    items = admin.get(f"/webhooks/{hook_id}/deliveries", params={"limit": 100}).json()["items"]
    return [str(item["state"]) for item in items]


def test_a_host_resolving_to_a_private_address_is_refused_at_connect_time() -> None:
    async def connect() -> None:
        await GuardedBackend(allow_private=False).connect_tcp("localhost", 80, timeout=2)

    with pytest.raises(httpcore.ConnectError, match="not allowed"):
        asyncio.run(connect())


def test_operations_on_an_unknown_webhook_are_404(admin: httpx.Client) -> None:
    for response in (
        admin.get("/webhooks/whk_missing"),
        admin.patch("/webhooks/whk_missing", json={"enabled": False}),
        admin.delete("/webhooks/whk_missing"),
        admin.get("/webhooks/whk_missing/deliveries"),
    ):
        assert response.status_code == 404, response.request.method
        assert response.json()["code"] == "webhook_not_found"
