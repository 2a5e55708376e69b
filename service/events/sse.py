"""A Server-Sent Events response that can drop a stalled reader.

A generator-based streaming response blocks inside `send` once the reader stops
reading, and would never notice that its subscription overflowed. Here the
frames are pumped in a task raced against the client going away and the
subscription overflowing; on overflow the response ends unfinished and the
server closes the connection (uvicorn logs that once), so memory stays bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from starlette.types import Receive, Scope, Send

HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


class EventStreamResponse:
    def __init__(
        self, frames: AsyncIterator[bytes], overflowed: asyncio.Event, on_close: Callable[[], None]
    ) -> None:
        self.frames = frames
        self.overflowed = overflowed
        self.on_close = on_close
        self.closing = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        pump = asyncio.create_task(self._pump(send))
        gone = asyncio.create_task(self._disconnected(receive))
        overflow = asyncio.create_task(self.overflowed.wait())
        try:
            await asyncio.wait({pump, gone, overflow}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.closing = True  # the pump stops even if a cancellation gets lost
            for task in (pump, gone, overflow):
                task.cancel()
            await asyncio.gather(pump, gone, overflow, return_exceptions=True)
            self.on_close()
            with contextlib.suppress(Exception):
                await self.frames.aclose()  # type: ignore[attr-defined]
        if pump.done() and not pump.cancelled() and pump.exception() is None:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _pump(self, send: Send) -> None:
        async for frame in self.frames:
            if self.closing:
                return
            await send({"type": "http.response.body", "body": frame, "more_body": True})

    @staticmethod
    async def _disconnected(receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
