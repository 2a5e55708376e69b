"""Receiving a large JSON artifact upload (dbt manifest, run results): raw JSON,
gzip (Content-Encoding or magic bytes) or a multipart `file` field. The bytes are
spooled and gzip decided in `service.store.spool`; here the request is only asked
which it is, and the number of gzip uploads inflating at once is bounded so
concurrent ones cannot add up past the memory."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from starlette.datastructures import UploadFile
from starlette.requests import Request

from service import state
from service.errors import UnsupportedMediaType, validation_error
from service.http import content_codings, media_type
from service.middleware.idempotency import SPOOLED_BODY
from service.store.inflation import InflationBudget
from service.store.spool import Spooled, is_gzip, spool, spooled_file

UPLOAD_TYPES = ("application/json", "application/gzip", "application/octet-stream")
T = TypeVar("T")


async def parse_off_loop(request: Request, gzipped: bool, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in a worker thread (parsing is CPU-bound); when the body is gzip, within
    the process's inflation budget."""
    if gzipped:
        return await inflation_budget(request).run(fn, *args)
    return await asyncio.to_thread(fn, *args)


def inflation_budget(request: Request) -> InflationBudget:
    """The process's budget, made by the app's lifespan."""
    return state.of(request).inflation


async def read_upload(request: Request, what: str) -> tuple[bytes, bool]:
    """(raw bytes, whether they are gzip), the body held whole in memory."""
    if media_type(request) == "multipart/form-data":
        async with request.form(max_files=1, max_fields=10) as form:
            raw = await file_part(form.get("file")).read()
            return raw, is_gzip(False, raw)
    said = _said_gzip(request, what)  # refuses another media type before reading
    raw = await request.body()
    return raw, is_gzip(said, raw)


@asynccontextmanager
async def spooled_upload(request: Request, what: str, limit: int) -> AsyncIterator[Spooled]:
    """The upload spooled once, open for the block's duration, never held in memory
    whole: a multipart part as Starlette spooled it, a body the idempotency middleware
    spooled to fingerprint it as that file, any other body spooled here as it streams
    (413 past `limit` bytes)."""
    if media_type(request) == "multipart/form-data":
        async with request.form(max_files=1, max_fields=10) as form:
            yield spooled_file(file_part(form.get("file")).file, False)
        return
    said = _said_gzip(request, what)
    kept = request.scope.get("state", {}).get(SPOOLED_BODY)
    if kept is not None:
        yield spooled_file(kept, said)
        return
    async with spool(request.stream(), said, limit) as body:
        yield body


def file_part(upload: object) -> UploadFile:
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
