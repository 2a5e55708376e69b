"""The live event stream and webhooks against a running service (GOVERNANCE_URL,
GOVERNANCE_TOKEN with the admin scope), as `clients/harness.py python` provides;
the service must allow webhook targets on loopback (GOVERNANCE_WEBHOOK_ALLOW_PRIVATE)."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import anyio
import pytest
from loopback import Feed, Proxy, Receiver

from governance_client import (
    AsyncClient,
    Client,
    NotFoundError,
    WebhookVerificationError,
    verify_webhook,
)

pytestmark = pytest.mark.live


def ours(prefix: str) -> Any:
    return lambda event: str(event["data"].get("id", "")).startswith(prefix)


# -- the event stream -------------------------------------------------------------


def test_the_stream_sees_a_change_and_resumes_after_a_cut_without_gap_or_duplicate(
    client: Client, url: str, prefix: str
) -> None:
    target = urlsplit(url)
    with (
        Proxy(target.hostname or "127.0.0.1", target.port or 80) as proxy,
        Client(base_url=proxy.url) as via_proxy,
        via_proxy.events.stream(types="asset.created") as events,
    ):
        feed = Feed(events)
        client.assets.create(f"{prefix}.one", name="one", type="table")
        first = feed.take(ours(prefix))
        assert (first["type"], first["data"]["id"]) == ("asset.created", f"{prefix}.one")

        proxy.cut()  # the stream's connection breaks; these happen while it is down
        client.assets.create(f"{prefix}.two", name="two", type="table")
        client.assets.create(f"{prefix}.three", name="three", type="table")
        second, third = feed.take(ours(prefix)), feed.take(ours(prefix))

        assert [second["data"]["id"], third["data"]["id"]] == [f"{prefix}.two", f"{prefix}.three"]
        assert first["seq"] < second["seq"] < third["seq"]
        assert events.connections == 2
        resumed = proxy.heads[-1].decode("latin-1").lower()
        assert f"last-event-id: {first['seq']}\r\n" in resumed
        events.close()
        proxy.cut()
        feed.join()


def test_the_stream_starts_after_a_given_sequence(client: Client, prefix: str) -> None:
    with client.events.stream(types="asset.created") as live:
        feed = Feed(live)
        client.assets.create(f"{prefix}.earlier", name="earlier", type="table")
        seen = feed.take(ours(prefix))
        live.close()
    with client.events.stream(after=seen["seq"] - 1, types="asset.*") as replay:
        replayed = Feed(replay).take(lambda event: True)
        replay.close()
    assert replayed == seen


@pytest.mark.anyio
async def test_the_async_stream_sees_a_change(client: Client, url: str, prefix: str) -> None:
    async with AsyncClient(base_url=url) as aclient:
        async with aclient.events.stream(types=["asset.*"]) as events:
            await aclient.assets.create(f"{prefix}.async", name="async", type="table")
            with anyio.fail_after(30):
                async for event in events:
                    if ours(prefix)(event):
                        break
        assert (event["type"], event["data"]["id"]) == ("asset.created", f"{prefix}.async")
        assert events.last_event_id == event["seq"]


# -- webhooks ---------------------------------------------------------------------


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


@pytest.fixture
def webhooks(client: Client) -> Iterator[list[str]]:
    """Ids of webhooks a test made; deleted afterwards."""
    made: list[str] = []
    yield made
    for webhook_id in made:
        with contextlib.suppress(NotFoundError):
            client.webhooks.delete(webhook_id)


def test_a_webhook_delivers_signed_events_that_verify(
    client: Client, prefix: str, receiver: Receiver, webhooks: list[str]
) -> None:
    hook = client.webhooks.create(receiver.url, types=["asset.created"], description=prefix)
    webhooks.append(hook["id"])
    secret = hook["secret"]
    assert secret.startswith("whsec_")
    assert (hook["types"], hook["enabled"]) == (["asset.created"], True)
    assert "secret" not in client.webhooks.get(hook["id"])

    result = client.webhooks.test(hook["id"])
    assert (result["delivered"], result["status"]) == (True, 204)
    headers, body = receiver.next()
    assert verify_webhook(secret, headers, body)["type"] == "webhook.test"
    other = "whsec_" + base64.b64encode(b"x" * 32).decode()
    with pytest.raises(WebhookVerificationError):
        verify_webhook(other, headers, body)

    asset_id = f"{prefix}.hooked"
    client.assets.create(asset_id, name="hooked", type="table")
    envelope = _delivered(receiver, secret, asset_id)
    assert envelope["type"] == "asset.created"
    assert envelope["data"]["name"] == "hooked"
    deliveries = list(client.webhooks.iter_deliveries(hook["id"], limit=1))
    mine = [d for d in deliveries if d["event_id"] == envelope["id"]]
    assert mine
    assert mine[0]["event_type"] == "asset.created"


def _delivered(receiver: Receiver, secret: str, asset_id: str) -> dict[str, Any]:
    """The first verified delivery about ``asset_id`` (others may come first)."""
    for _ in range(20):
        headers, body = receiver.next()
        envelope: dict[str, Any] = verify_webhook(secret, headers, body)
        assert headers["webhook-id"] == envelope["id"]
        if envelope["data"].get("id") == asset_id:
            return envelope
    raise AssertionError(f"no delivery for {asset_id}")


def test_a_webhook_is_listed_patched_and_deleted(
    client: Client, prefix: str, receiver: Receiver, webhooks: list[str]
) -> None:
    hook = client.webhooks.create(receiver.url, description=prefix)
    webhooks.append(hook["id"])
    assert hook["types"] == ["*"]
    assert hook["id"] in {h["id"] for h in client.webhooks.iter(limit=100)}

    patched = client.webhooks.patch(
        hook["id"], {"enabled": False, "types": ["policy.*"], "description": None}
    )
    assert (patched["enabled"], patched["types"], patched["description"]) == (
        False,
        ["policy.*"],
        None,
    )
    raw = client.with_raw_response.webhooks.delete(hook["id"])
    assert raw.status_code == 204
    with pytest.raises(NotFoundError):
        client.webhooks.get(hook["id"])
