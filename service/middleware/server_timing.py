"""`Server-Timing: db;dur=…, total;dur=…` on every answer (milliseconds): how long
the request waited on Neo4j and how long the service took until it answered. A
client, or a browser's network panel, can then tell database time from the
service's own and from the network's, request by request, without a metrics
scrape (whose sums are means, skewed by the odd slow request)."""

from __future__ import annotations

import time

from starlette.types import Message, Receive, Scope, Send

from service import request_clock
from service.http import Header, appending
from service.middleware.base import HttpMiddleware


class ServerTimingMiddleware(HttpMiddleware):
    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        tally = request_clock.begin()

        def timing(_: Message) -> list[Header]:
            total_ms = (time.perf_counter() - started) * 1000
            value = f"db;dur={tally.database_s * 1000:.3f}, total;dur={total_ms:.3f}"
            return [(b"server-timing", value.encode())]

        await self.app(scope, receive, appending(send, timing))
