"""The defaults every client library shares, per-call options, and raw responses, on a
scripted transport. No network."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from scripted import Script, ok, problem, time_out

from governance_client import (
    APIResponse,
    APITimeoutError,
    AsyncClient,
    BadRequestError,
    Client,
    RequestOptions,
    ServerError,
)

ASSET = {"id": "a", "name": "A", "type": "table", "version": 1}


def test_the_shared_defaults() -> None:
    with Client(base_url="http://gov.test", token="t") as client:
        assert (client.timeout, client.max_retries) == (60.0, 2)


def test_two_retries_by_default(make: Callable[..., Client], sleeps: list[float]) -> None:
    script = Script(*[problem(502, "bad_gateway") for _ in range(3)])
    with pytest.raises(ServerError):
        make(script).assets.get("a")
    assert len(script.requests) == 3
    assert len(sleeps) == 2


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_these_answers_are_retried(make: Callable[..., Client], status: int) -> None:
    script = Script(problem(status, "x"), ok(ASSET))
    assert make(script).assets.get("a") == ASSET
    assert len(script.requests) == 2


def test_a_408_is_a_bad_request_when_retries_run_out(make: Callable[..., Client]) -> None:
    script = Script(problem(408, "request_timeout"))
    with pytest.raises(BadRequestError) as caught:
        make(script, max_retries=0).assets.get("a")
    assert caught.value.status == 408


# -- per-call options --------------------------------------------------------------


def test_options_set_headers_request_id_and_timeout(make: Callable[..., Client]) -> None:
    script = Script(ok(ASSET))
    options: RequestOptions = {
        "timeout": 5,
        "request_id": "req-42",
        "headers": {"X-Trace": "abc"},
    }
    make(script).assets.get("a", options=options)
    request = script.requests[0]
    assert request.headers["x-request-id"] == "req-42"
    assert request.headers["x-trace"] == "abc"
    assert request.extensions["timeout"] == httpx.Timeout(5).as_dict()


def test_a_timeout_option_overrides_an_upload_s_longer_one(make: Callable[..., Client]) -> None:
    script = Script(ok({"project": "p"}), ok({"project": "p"}))
    client = make(script)
    client.lineage.upload_manifest(b"{}", options={"timeout": 30})
    client.lineage.upload_manifest(b"{}", options={"timeout": None})
    assert script.requests[0].extensions["timeout"]["read"] == 30
    assert script.requests[1].extensions["timeout"]["read"] is None


def test_max_retries_per_call(make: Callable[..., Client], sleeps: list[float]) -> None:
    script = Script(time_out, time_out, ok(ASSET))
    with pytest.raises(APITimeoutError):
        make(script).assets.get("a", options={"max_retries": 0})
    assert len(script.requests) == 1
    with pytest.raises(ValueError, match="max_retries"):
        make(script).assets.get("a", options={"max_retries": -1})


def test_an_idempotency_key_option_makes_a_post_retried(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"), ok({"id": "tok_1", "token": "dgs_x"}))
    make(script).tokens.create("ci", scopes="read", options={"idempotency_key": "ci-token"})
    assert [r.headers["idempotency-key"] for r in script.requests] == ["ci-token", "ci-token"]


def test_options_apply_to_every_page(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [ASSET], "next_cursor": "c1"}), ok({"items": [ASSET], "next_cursor": None})
    )
    assets = list(make(script).assets.iter(options={"request_id": "sync-7"}))
    assert len(assets) == 2
    assert [r.headers["x-request-id"] for r in script.requests] == ["sync-7", "sync-7"]


# -- raw responses -----------------------------------------------------------------


def test_raw_response_tells_created_from_replaced(make: Callable[..., Client]) -> None:
    headers = {"ETag": '"1"', "RateLimit-Remaining": "99", "X-Request-ID": "r1"}
    script = Script(
        httpx.Response(201, json=ASSET, headers=headers),
        httpx.Response(200, json={**ASSET, "version": 2}, headers={"ETag": '"2"'}),
    )
    client = make(script)
    created = client.with_raw_response.assets.put("a", name="A", type="table")
    assert isinstance(created, APIResponse)
    assert (created.status_code, created.etag, created.request_id) == (201, '"1"', "r1")
    assert created.headers["ratelimit-remaining"] == "99"
    assert created.parse() == ASSET
    replaced = client.with_raw_response.assets.put("a", name="A", type="table")
    assert (replaced.status_code, replaced.parse()["version"]) == (200, 2)
    assert client.with_raw_response is client.with_raw_response


def test_raw_responses_cover_the_service_operations(make: Callable[..., Client]) -> None:
    script = Script(httpx.Response(204), ok({"status": "ok"}))
    client = make(script)
    deleted = client.with_raw_response.lineage.delete_edge("a", "b")
    assert (deleted.status_code, deleted.parse()) == (204, None)
    assert client.with_raw_response.health().parse() == {"status": "ok"}


def test_outside_raw_responses_nothing_is_kept(make: Callable[..., Client]) -> None:
    script = Script(ok(ASSET))
    assert make(script).assets.get("a") == ASSET


@pytest.mark.anyio
async def test_async_raw_response_and_options() -> None:
    script = Script(httpx.Response(201, json={"source": "a", "target": "b"}))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        raw = await client.with_raw_response.lineage.add_edge(
            "a", "b", options={"idempotency_key": "edge-1"}
        )
    assert raw.status_code == 201
    assert raw.parse()["target"] == "b"
    assert script.requests[0].headers["idempotency-key"] == "edge-1"
