"""Route on the path as the client encoded it, and refuse a request target that is
not valid percent-encoded UTF-8.

An asset id may contain `/` (`s3://lake/raw/events.parquet`); clients send it
percent-encoded as one segment. ASGI servers decode the path before routing,
which would split such an id, so this puts the encoded path back and handlers
decode each parameter exactly once (`service.http.path_param`).

Starlette reads a query string leniently (`%FF` becomes U+FFFD), so a filter with
broken encoding would silently match something else; it is refused here instead
(400 `invalid_query`), before any handler runs.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Receive, Scope, Send

from service.errors import BadRequest
from service.http import problem_response


def _target_error(scope: Scope) -> BadRequest | None:
    raw: bytes = scope.get("raw_path") or b""
    try:
        scope["path"] = raw.decode("utf-8").split("?", 1)[0] if raw else scope["path"]
    except UnicodeDecodeError:
        return BadRequest("The request path is not valid UTF-8.", code="invalid_path")
    query: bytes = scope.get("query_string") or b""
    try:
        parse_qsl(query.decode("utf-8"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return BadRequest(
            "The query string is not valid percent-encoded UTF-8.", code="invalid_query"
        )
    return None


class RawPathMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = _target_error(scope) if scope["type"] == "http" else None
        if error is not None:
            await problem_response(error, scope)(scope, receive, send)
            return
        await self.app(scope, receive, send)
