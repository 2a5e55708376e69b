"""Reading a large JSON artifact upload (dbt manifest, run results): raw JSON,
gzip (Content-Encoding or magic bytes) or a multipart `file` field, with the
decompressed size bounded so a gzip bomb is refused, and the number of gzip uploads
inflating at once bounded so concurrent ones cannot add up past the memory."""

from __future__ import annotations

import asyncio
import math
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import IO, Any, TypeVar

import orjson
from starlette.datastructures import UploadFile
from starlette.requests import Request

from service.domain.decompress import GZIP_MAGIC, Corrupt, TooLarge, gunzip
from service.errors import (
    PayloadTooLarge,
    Unavailable,
    Unprocessable,
    UnsupportedMediaType,
    validation_error,
)
from service.http import content_codings, media_type

UPLOAD_TYPES = ("application/json", "application/gzip", "application/octet-stream")
# A spooled body stays in memory up to this size, then goes to a temporary file.
SPOOL_BYTES = 4 * 1024 * 1024
T = TypeVar("T")


class InflationBudget:
    """At most `slots` gzip uploads inflate and parse at once in this process. A run
    results upload may take up to the manifest limit (256 MiB) and more again as parsed
    JSON, a manifest (which streams) about its compiled SQL, so six at once would
    otherwise take gigabytes. Others wait their turn for up to `wait_s` seconds, then
    are refused with 503 `server_busy`. A turn ends when the worker
    thread ends, even if the request was abandoned meanwhile."""

    def __init__(self, slots: int, wait_s: float) -> None:
        self._slots = asyncio.Semaphore(max(1, slots))
        self.wait_s = wait_s
        self.running = 0
        self.peak = 0  # most turns ever held at once (for tests and operators)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            async with asyncio.timeout(self.wait_s):
                await self._slots.acquire()
        except TimeoutError:
            raise Unavailable(
                code="server_busy",
                headers={"Retry-After": str(max(1, math.ceil(self.wait_s)))},
            ) from None
        self.running += 1
        self.peak = max(self.peak, self.running)
        work = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        work.add_done_callback(self._release)
        return await asyncio.shield(work)

    def _release(self, _: object) -> None:
        self.running -= 1
        self._slots.release()


async def parse_off_loop(
    request: Request, raw: bytes, gzipped: bool, fn: Callable[..., T], *args: Any
) -> T:
    """`fn(*args)` in a worker thread (parsing is CPU-bound); when `raw` is gzip, within
    the process's inflation budget."""
    if gzipped or raw[:2] == GZIP_MAGIC:
        budget: InflationBudget = request.state.inflation
        return await budget.run(fn, *args)
    return await asyncio.to_thread(fn, *args)


async def read_upload(request: Request, what: str) -> tuple[bytes, bool]:
    """(raw bytes, whether the client said they are gzip)."""
    if media_type(request) == "multipart/form-data":
        async with request.form(max_files=1, max_fields=10) as form:
            return await _file_part(form.get("file")).read(), False
    gzipped = _said_gzip(request, what)  # refuses another media type before reading
    return await request.body(), gzipped


@asynccontextmanager
async def spooled_upload(request: Request, what: str) -> AsyncIterator[tuple[IO[bytes], bool]]:
    """The upload as a file positioned at its start, and whether it is gzip (said so, or
    the magic bytes), open for the block's duration. Unlike `read_upload` the body is
    never held in memory whole: it is spooled to a temporary file past SPOOL_BYTES (a
    multipart part already is, by Starlette), for readers that stream it."""
    if media_type(request) == "multipart/form-data":
        async with request.form(max_files=1, max_fields=10) as form:
            upload = _file_part(form.get("file"))
            await upload.seek(0)
            yield upload.file, await asyncio.to_thread(_starts_gzip, upload.file)
        return
    said = _said_gzip(request, what)
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
        pending: list[bytes] = []
        size = total = 0
        async for chunk in request.stream():
            pending.append(chunk)
            size += len(chunk)
            total += len(chunk)
            if size >= SPOOL_BYTES:  # a write that may go to disk: off the event loop
                await asyncio.to_thread(spool.write, b"".join(pending))
                pending, size = [], 0
        if total > SPOOL_BYTES:
            await asyncio.to_thread(spool.write, b"".join(pending))
        else:
            spool.write(b"".join(pending))
        yield spool, said or _starts_gzip(spool)


def _file_part(upload: object) -> UploadFile:
    if not isinstance(upload, UploadFile):
        raise validation_error(
            ("body", "file"), "a multipart upload needs a `file` field", "missing"
        )
    return upload


def _said_gzip(request: Request, what: str) -> bool:
    if media_type(request) not in UPLOAD_TYPES:
        raise UnsupportedMediaType(
            f"Send the {what} as application/json (optionally Content-Encoding: gzip) "
            "or as multipart/form-data with a `file` field."
        )
    return content_codings(request.headers.get("content-encoding")) == ["gzip"]


def _starts_gzip(file: IO[bytes]) -> bool:
    """Whether the file starts with the gzip magic bytes; leaves it at its start."""
    file.seek(0)
    head = file.read(len(GZIP_MAGIC))
    file.seek(0)
    return head == GZIP_MAGIC


def parse_upload(
    raw: bytes, limit: int, gzipped: bool, invalid: Callable[[str], Unprocessable]
) -> Any:
    """The JSON document; CPU-bound, so callers run it in a worker thread."""
    try:
        if gzipped or raw[:2] == GZIP_MAGIC:
            raw = gunzip(raw, limit)
    except TooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except Corrupt as exc:
        raise invalid(str(exc)) from exc
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise invalid(f"the body is not JSON ({str(exc).split(':', 1)[0]})") from exc
