"""Reading a large JSON artifact upload (dbt manifest, run results): raw JSON,
gzip (Content-Encoding or magic bytes) or a multipart `file` field, with the
decompressed size bounded so a gzip bomb is refused, and the number of gzip uploads
inflating at once bounded so concurrent ones cannot add up past the memory."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any, TypeVar

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
T = TypeVar("T")


class InflationBudget:
    """At most `slots` gzip uploads inflate and parse at once in this process. Each
    may take up to the manifest limit (256 MiB) and more again as parsed JSON, so six
    at once would otherwise take gigabytes. Others wait their turn for up to `wait_s`
    seconds, then are refused with 503 `server_busy`. A turn ends when the worker
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
    kind = media_type(request)
    if kind == "multipart/form-data":
        async with request.form(max_files=1, max_fields=10) as form:
            upload = form.get("file")
            if not isinstance(upload, UploadFile):
                raise validation_error(
                    ("body", "file"), "a multipart upload needs a `file` field", "missing"
                )
            return await upload.read(), False
    if kind not in UPLOAD_TYPES:
        raise UnsupportedMediaType(
            f"Send the {what} as application/json (optionally Content-Encoding: gzip) "
            "or as multipart/form-data with a `file` field."
        )
    gzipped = content_codings(request.headers.get("content-encoding")) == ["gzip"]
    return await request.body(), gzipped


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
