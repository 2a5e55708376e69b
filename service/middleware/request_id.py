"""Every response carries `X-Request-ID`: the client's, if it sent a sane one. Every
log line written while the request is handled carries it too (`service.logs`)."""

from __future__ import annotations

import re
import uuid

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import logs

_SANE = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get("x-request-id", "")
        request_id = given if _SANE.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        # Not reset afterwards: the error handler logs outside this middleware, and each
        # request runs in a task (a context) of its own.
        logs.request_id.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        await self.app(scope, receive, send_with_id)
