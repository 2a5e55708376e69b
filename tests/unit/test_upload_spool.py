"""An upload is spooled once and its gzip decided once: a body the idempotency
middleware already spooled is read from that file, not received again; any other is
spooled here, bounded, and every reader sees the same gzip decision."""

from __future__ import annotations

import asyncio
import gzip
import io
from collections.abc import AsyncIterator

import pytest
from starlette.requests import Request
from starlette.types import Message

from service.api.uploads import spooled_upload
from service.errors import PayloadTooLarge
from service.middleware.idempotency import SPOOLED_BODY
from service.store.spool import SPOOL_BYTES, is_gzip, spool


def _request(headers: dict[str, str], state: dict[str, object]) -> Request:
    async def receive() -> Message:
        raise AssertionError("the body was received a second time")

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/lineage/manifest",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        "query_string": b"",
        "state": state,
    }
    return Request(scope, receive)


@pytest.mark.parametrize(("encoding", "body"), [("", gzip.compress(b"{}")), ("gzip", b"{}")])
def test_a_body_the_idempotency_middleware_spooled_is_that_file_not_received_again(
    encoding: str, body: bytes
) -> None:
    kept = io.BytesIO(body)
    headers = {"content-type": "application/json", "content-encoding": encoding}

    async def read() -> tuple[object, bool]:
        async with spooled_upload(_request(headers, {SPOOLED_BODY: kept}), "manifest", 10) as up:
            return up.file, up.gzipped

    file, gzipped = asyncio.run(read())
    assert file is kept
    assert gzipped is (encoding == "gzip" or body[:2] == b"\x1f\x8b")


async def _chunks(*parts: bytes) -> AsyncIterator[bytes]:
    for part in parts:
        yield part


@pytest.mark.parametrize("size", [10, SPOOL_BYTES + 1])
def test_a_streamed_body_is_spooled_whole_and_gzip_known_by_its_magic(size: int) -> None:
    raw = gzip.compress(b" " * size)

    async def read() -> tuple[bytes, bool]:
        async with spool(_chunks(raw[:5], raw[5:]), False, 1 << 30) as up:
            return up.inflated(1 << 30).read(size + 1), up.gzipped

    assert asyncio.run(read()) == (b" " * size, True)


def test_a_body_past_the_limit_is_413_as_it_arrives() -> None:
    async def read() -> None:
        async with spool(_chunks(b"x" * 6, b"x" * 6), False, 10):
            raise AssertionError("spooled past the limit")

    with pytest.raises(PayloadTooLarge):
        asyncio.run(read())


def test_gzip_is_what_the_sender_said_or_what_the_bytes_start_with() -> None:
    assert is_gzip(True, b"{}") and is_gzip(False, b"\x1f\x8b\x08")
    assert not is_gzip(False, b"{}") and not is_gzip(False, b"")
