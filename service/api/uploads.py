"""Reading a large JSON artifact upload (dbt manifest, run results): raw JSON,
gzip (Content-Encoding or magic bytes) or a multipart `file` field, with the
decompressed size bounded so a gzip bomb is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from starlette.datastructures import UploadFile
from starlette.requests import Request

from service.domain.decompress import GZIP_MAGIC, Corrupt, TooLarge, gunzip
from service.errors import PayloadTooLarge, Unprocessable, UnsupportedMediaType, validation_error
from service.http import content_codings, media_type

UPLOAD_TYPES = ("application/json", "application/gzip", "application/octet-stream")


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
