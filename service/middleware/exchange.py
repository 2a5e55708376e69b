"""What one HTTP exchange looked like, for the access log and the metrics."""

from __future__ import annotations

import time

from starlette.types import Message, Receive, Scope, Send

from service.middleware.base import HttpMiddleware

UNMATCHED = "unmatched"


class Exchange:
    """Wraps `receive` and `send` to see the status, the headers sent and the body
    bytes received; until the app answers, the status is the 500 the server sends."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self.started = time.perf_counter()
        self.status = 500
        self._headers: list[tuple[bytes, bytes]] = []
        self.received = 0
        self._receive = receive
        self._send = send

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self._headers = list(message.get("headers", []))
        await self._send(message)

    def header(self, name: bytes) -> str | None:
        """A response header (`name` in lower case), or None if it was not sent."""
        for key, value in self._headers:
            if key.lower() == name:
                return value.decode("latin-1")
        return None

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def route(self) -> str:
        return route_template(self.scope)


class Observing(HttpMiddleware):
    """A middleware that is shown each HTTP exchange once it is over, failed or not."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        exchange = Exchange(scope, receive, send)
        try:
            await self.app(scope, exchange.receive, exchange.send)
        finally:
            self.over(exchange)

    def over(self, exchange: Exchange) -> None:
        raise NotImplementedError


def route_template(scope: Scope) -> str:
    """The matched route's path template (`/api/v1/assets/{asset_id:path}`), never the
    raw path: raw paths hold ids. `RoutePolicyMiddleware` matches a request before any
    middleware can refuse it, so a 401 or a 413 has its template too."""
    path = getattr(scope.get("route"), "path", None)
    return UNMATCHED if path is None else str(path)
