"""Refuse a request body in a content coding the service cannot read.

Only `gzip` and `identity` are understood (`service.http.read_json` and the upload
readers inflate gzip with a ceiling). Anything else, `br` or `zstd` say, would
otherwise be read as if it were plain JSON; it is refused with 415 and an
`Accept-Encoding` header naming what is understood (RFC 7694), before the body is
read.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from service.errors import UnsupportedMediaType
from service.http import content_codings, problem_response


def is_understood(header: str | None) -> bool:
    """At most one gzip layer (`identity` means no coding and may stand beside it)."""
    found = content_codings(header)
    return found in ([], ["gzip"])


class ContentEncodingMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            header = Headers(scope=scope).get("content-encoding")
            if not is_understood(header):
                error = UnsupportedMediaType(
                    f"Content-Encoding {header!r} is not supported; send gzip or no coding.",
                    code="unsupported_content_encoding",
                    headers={"Accept-Encoding": "gzip, identity"},
                )
                await problem_response(error, scope)(scope, receive, send)
                return
        await self.app(scope, receive, send)
