"""The shared vectors of clients/contract/vectors.json, each checked twice: against
the pure function, and through a Client on a mock transport (no network)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from governance_client import APIError, Client, WebhookVerificationError, verify_webhook
from governance_client._base import normalize_base_url
from governance_client._call import Call, chunked, encode_segment
from governance_client._errors import error_kind
from governance_client._retry import parse_retry_after, should_retry

VECTORS_FILE = Path(__file__).resolve().parents[2] / "contract" / "vectors.json"
VECTORS: dict[str, Any] = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))


def _ids(group: str, *keys: str) -> list[str]:
    return ["-".join(str(v[k]) for k in keys) for v in VECTORS[group]]


def _client(handler: Any, **options: Any) -> Client:
    sleeps: list[float] = []
    client = Client(
        base_url="http://gov.test",
        token="dgs_test",
        transport=httpx.MockTransport(handler),
        sleep=sleeps.append,
        **options,
    )
    client.sleeps = sleeps  # type: ignore[attr-defined]
    return client


def test_every_group_is_present() -> None:
    groups = (
        "base_url",
        "path_segment",
        "errors",
        "retry",
        "retry_after",
        "bulk_chunks",
        "webhook_signatures",
    )
    for group in groups:
        assert VECTORS[group], group


@pytest.mark.parametrize("vector", VECTORS["base_url"], ids=_ids("base_url", "input"))
def test_base_url_is_normalised(vector: dict[str, str]) -> None:
    assert normalize_base_url(vector["input"]) == vector["expected"]
    assert Client(base_url=vector["input"], token="t").base_url == vector["expected"]


@pytest.mark.parametrize("vector", VECTORS["path_segment"], ids=_ids("path_segment", "encoded"))
def test_an_id_is_one_encoded_path_segment(vector: dict[str, str]) -> None:
    assert encode_segment(vector["id"]) == vector["encoded"]
    seen: list[bytes] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.raw_path)
        return httpx.Response(200, json={"id": vector["id"]})

    with _client(handler) as client:
        client.assets.get(vector["id"])
    assert seen == [b"/api/v1/assets/" + vector["encoded"].encode("ascii")]


@pytest.mark.parametrize("vector", VECTORS["errors"], ids=_ids("errors", "status", "code"))
def test_an_error_status_maps_to_its_kind(vector: dict[str, Any]) -> None:
    assert error_kind(vector["status"], vector["code"]) == vector["kind"]
    problem = {
        "type": f"/problems/{vector['code']}",
        "title": "t",
        "status": vector["status"],
        "detail": "d",
        "instance": "/api/v1/assets/x",
        "code": vector["code"],
        "request_id": "req-1",
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            vector["status"],
            json=problem,
            headers={"Content-Type": "application/problem+json", "X-Request-ID": "req-1"},
        )

    with _client(handler, max_retries=0) as client, pytest.raises(APIError) as caught:
        client.assets.get("x")
    error = caught.value
    assert error.kind == vector["kind"]
    assert (error.status, error.code, error.request_id) == (
        vector["status"],
        vector["code"],
        "req-1",
    )
    assert error.problem == problem


@pytest.mark.parametrize(
    "vector", VECTORS["retry"], ids=_ids("retry", "method", "status", "idempotency_key")
)
def test_retry_decision(vector: dict[str, Any]) -> None:
    method, status, keyed = vector["method"], vector["status"], vector["idempotency_key"]
    assert should_retry(method, status, keyed) is vector["retry"]
    attempts: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(request)
        if len(attempts) == 1:
            return httpx.Response(status, json={"status": status, "code": "x"})
        return httpx.Response(200, json={})

    call: Call[None] = Call(method, "/x", lambda r: None, idempotency_key="k" if keyed else None)
    with _client(handler) as client:
        try:
            client._call(call)
            failed = False
        except APIError:
            failed = True
    assert len(attempts) == (2 if vector["retry"] else 1)
    assert failed is not vector["retry"]


@pytest.mark.parametrize("vector", VECTORS["retry_after"], ids=_ids("retry_after", "header"))
def test_retry_after_is_parsed(vector: dict[str, Any]) -> None:
    assert parse_retry_after(vector["header"]) == vector["seconds"]
    if vector["seconds"] is None:
        return
    attempts = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            return httpx.Response(429, headers={"Retry-After": vector["header"]})
        return httpx.Response(200, json={})

    with _client(handler) as client:
        client.assets.get("x")
        assert client.sleeps == [vector["seconds"]]  # type: ignore[attr-defined]


@pytest.mark.parametrize("vector", VECTORS["bulk_chunks"], ids=_ids("bulk_chunks", "items", "max"))
def test_bulk_is_chunked(vector: dict[str, Any]) -> None:
    assert [len(c) for c in chunked(range(vector["items"]), vector["max"])] == vector["chunks"]
    sizes: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        edges = json.loads(request.content)
        sizes.append(len(edges))
        return httpx.Response(
            200,
            json={
                "received": len(edges),
                "created": len(edges),
                "existing": 0,
                "assets_created": 0,
            },
        )

    edges = ((f"s{i}", f"t{i}") for i in range(vector["items"]))
    with _client(handler) as client:
        result = client.lineage.push_bulk(edges, chunk_size=vector["max"])
    assert sizes == vector["chunks"]
    assert result == {
        "received": vector["items"],
        "created": vector["items"],
        "existing": 0,
        "assets_created": 0,
    }


@pytest.mark.parametrize(
    "vector",
    VECTORS["webhook_signatures"],
    ids=[f"{i}-{v['valid']}" for i, v in enumerate(VECTORS["webhook_signatures"])],
)
def test_webhook_signatures(vector: dict[str, Any]) -> None:
    headers = {
        "Webhook-Id": vector["id"],
        "WEBHOOK-TIMESTAMP": str(vector["timestamp"]),
        "webhook-signature": vector["signature"],
    }
    body = vector["body"].encode("utf-8")
    if vector["valid"]:
        envelope = verify_webhook(vector["secret"], headers, body, now=vector["timestamp"])
        assert envelope == json.loads(body)
    else:
        with pytest.raises(WebhookVerificationError):
            verify_webhook(vector["secret"], headers, body, now=vector["timestamp"])
