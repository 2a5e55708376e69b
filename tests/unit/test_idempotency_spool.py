"""The Idempotency-Key middleware's spooled body: the fingerprint is the one stored
records were made with, and the route gets the body back whole, in chunks."""

from __future__ import annotations

import asyncio
import hashlib

import pytest
from starlette.types import Message

from service.middleware import idempotency
from service.middleware.idempotency import REPLAY_CHUNK_BYTES, SPOOL_IN_MEMORY_BYTES


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
