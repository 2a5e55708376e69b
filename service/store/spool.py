"""A large JSON upload (a dbt manifest or run results) as one spooled file, with gzip
decided once: said so by the sender, or the file starts with the gzip magic bytes.

Whoever received the bytes (an API request, a dashboard form's file part, the
idempotency middleware that had to read the body first) hands them here, so the
body is written to disk at most once and every reader agrees whether it is gzip.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterable, AsyncIterator, Callable
from dataclasses import dataclass
from typing import IO, Any

import orjson

from service.domain.decompress import GZIP_MAGIC, Corrupt, Gunzipping, Readable, TooLarge, gunzip
from service.errors import PayloadTooLarge, Unprocessable

# A spooled body stays in memory up to this size, then goes to a temporary file.
SPOOL_BYTES = 4 * 1024 * 1024
# Chunks as they arrive are gathered into writes of about this size.
WRITE_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Spooled:
    """The body as sent (positioned anywhere; readers seek), and whether it is gzip."""

    file: IO[bytes]
    gzipped: bool

    def inflated(self, limit: int) -> Readable:
        """The body from its start, inflated when gzip (TooLarge past `limit`)."""
        self.file.seek(0)
        return Gunzipping(self.file, limit) if self.gzipped else self.file


def is_gzip(said: bool, head: bytes) -> bool:
    """The one gzip decision: the sender said so, or the bytes start like gzip."""
    return said or head[: len(GZIP_MAGIC)] == GZIP_MAGIC


def spooled_file(file: IO[bytes], said_gzip: bool) -> Spooled:
    """A body another reader already spooled whole (a form's file part, the body the
    idempotency middleware fingerprinted): used as it is, not copied."""
    file.seek(0)
    head = file.read(len(GZIP_MAGIC))
    file.seek(0)
    return Spooled(file, is_gzip(said_gzip, head))


@contextlib.asynccontextmanager
async def spool(
    chunks: AsyncIterable[bytes], said_gzip: bool, limit: int
) -> AsyncIterator[Spooled]:
    """The chunks spooled (in memory up to SPOOL_BYTES, then a temporary file that is
    deleted on exit); more than `limit` bytes is 413 at the chunk that crosses it.
    Writes that may reach the disk run off the event loop."""
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as file:
        pending: list[bytes] = []
        size = total = 0
        async for chunk in chunks:
            total += len(chunk)
            if total > limit:
                raise PayloadTooLarge(f"The request body is larger than {limit} bytes.")
            pending.append(chunk)
            size += len(chunk)
            if size >= WRITE_BYTES:
                await _write(file, b"".join(pending), on_disk=total > SPOOL_BYTES)
                pending, size = [], 0
        await _write(file, b"".join(pending), on_disk=total > SPOOL_BYTES)
        yield spooled_file(file, said_gzip)


async def _write(file: IO[bytes], data: bytes, on_disk: bool) -> None:
    if on_disk:
        await asyncio.to_thread(file.write, data)
    else:
        file.write(data)


def parse_upload(
    raw: bytes, limit: int, gzipped: bool, invalid: Callable[[str], Unprocessable]
) -> Any:
    """A whole body's JSON document, inflated first when `gzipped` (as decided by
    `is_gzip`); CPU-bound, so callers run it in a worker thread."""
    try:
        if gzipped:
            raw = gunzip(raw, limit)
    except TooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except Corrupt as exc:
        raise invalid(str(exc)) from exc
    return parse_json(raw, invalid)


def parse_json(raw: bytes, invalid: Callable[[str], Unprocessable]) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise invalid(f"the body is not JSON ({str(exc).split(':', 1)[0]})") from exc
