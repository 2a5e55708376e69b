"""The Idempotency-Key middleware's spooled body: the fingerprint is the one stored
records were made with, and the route gets the body back whole, in chunks."""

from __future__ import annotations

import asyncio
import hashlib
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.types import Message

from service.domain.access.scopes import Scope
from service.http import CLIENT_CLOSED_REQUEST
from service.middleware import idempotency
from service.middleware.idempotency import REPLAY_CHUNK_BYTES, SPOOL_IN_MEMORY_BYTES
from service.routing import STATE_KEY, Replay, bearer


def _read_back(chunks: list[bytes]) -> tuple[str, list[Message]]:
    scope = {"path": "/api/v1/lineage/bulk", "query_string": b"strict=true"}
    arriving: list[Message] = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]

    async def receive() -> Message:
        return arriving.pop(0)

    async def run() -> tuple[str, list[Message]]:
        with idempotency._SpooledBody(scope) as body:
            await body.read(receive)
            replayed = [await body.replay()]
            while replayed[-1].get("more_body"):
                replayed.append(await body.replay())
            replayed.append(await body.replay())  # after the end: a disconnect
            return body.digest, replayed

    return asyncio.run(run())


@pytest.mark.parametrize(
    "size",
    [0, 10, REPLAY_CHUNK_BYTES, SPOOL_IN_MEMORY_BYTES + 1, 3 * SPOOL_IN_MEMORY_BYTES + 7],
)
def test_the_body_comes_back_whole_with_the_old_fingerprint(size: int) -> None:
    data = bytes(i % 251 for i in range(size))
    pieces = [data[i : i + 65_536] for i in range(0, size, 65_536)] or [b""]
    digest, replayed = _read_back(pieces)
    assert digest == hashlib.sha256(b"/api/v1/lineage/bulk\0strict=true\0" + data).hexdigest()
    assert b"".join(m["body"] for m in replayed[:-1]) == data
    assert all(len(m["body"]) <= REPLAY_CHUNK_BYTES for m in replayed[:-1])
    assert replayed[-2]["more_body"] is False
    assert replayed[-1] == {"type": "http.disconnect"}


class _Untouchable:
    """A graph, route or principal part the middleware must not reach."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"touched {name}")


def test_a_client_gone_before_its_body_ends_claims_nothing_and_runs_nothing() -> None:
    """A claim on half a body would fingerprint the half: the client's retry with the
    whole body would then be refused as a reused key."""
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/lineage/bulk",
        "query_string": b"",
        "headers": [(b"idempotency-key", b"k1")],
        "state": {
            "principal": SimpleNamespace(token_id="t1"),
            STATE_KEY: bearer(Scope.WRITE, replay=Replay.KEPT),
            "graph": _Untouchable(),
        },
    }
    arriving: list[Message] = [
        {"type": "http.request", "body": b'[{"source": "a", ', "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[Message] = []

    async def receive() -> Message:
        return arriving.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    async def route(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the route ran on half a body")

    asyncio.run(idempotency.IdempotencyMiddleware(route)(scope, receive, send))
    assert sent[0]["type"] == "http.response.start"
    assert sent[0]["status"] == CLIENT_CLOSED_REQUEST
