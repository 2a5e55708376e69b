"""Route on the path as the client encoded it.

An asset id may contain `/` (`s3://lake/raw/events.parquet`); clients send it
percent-encoded as one segment. ASGI servers decode the path before routing,
which would split such an id, so this puts the encoded path back and handlers
decode each parameter exactly once (`service.http.path_param`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from service.errors import BadRequest
from service.http import problem_response


class RawPathMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("raw_path") if scope["type"] == "http" else None
        if raw:
            try:
                scope["path"] = raw.decode("utf-8").split("?", 1)[0]
            except UnicodeDecodeError:
                error = BadRequest("The request path is not valid UTF-8.", code="malformed_path")
                await problem_response(error, scope)(scope, receive, send)
                return
        await self.app(scope, receive, send)
