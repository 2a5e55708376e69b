"""Every response carries `X-Request-ID`: the client's, if it sent a sane one. Every
log line written while the request is handled carries it too (`service.logs`)."""

from __future__ import annotations

import re
import uuid

from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

from service import logs
from service.http import appending
from service.middleware.base import HttpMiddleware

_SANE = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")


class RequestIdMiddleware(HttpMiddleware):
    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        given = Headers(scope=scope).get("x-request-id", "")
        request_id = given if _SANE.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        # Not reset afterwards: the error handler logs outside this middleware, and each
        # request runs in a task (a context) of its own.
        logs.request_id.set(request_id)

        header = (b"x-request-id", request_id.encode())
        await self.app(scope, receive, appending(send, lambda _: [header]))
