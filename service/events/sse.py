"""A Server-Sent Events response that can drop a stalled reader and end when the
process stops.

A generator-based streaming response blocks inside `send` once the reader stops
reading, and would never notice that its subscription overflowed. Here the
frames are pumped in a task raced against the client going away, the
subscription overflowing and the process closing its streams: on overflow the
response ends unfinished and the server closes the connection (uvicorn logs that
once), so memory stays bounded; on closing it ends as a finished response.
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
        self,
        frames: AsyncIterator[bytes],
        overflowed: asyncio.Event,
        stopping: asyncio.Event,
        on_close: Callable[[], None],
    ) -> None:
        self.frames = frames
        self.overflowed = overflowed
        self.stopping = stopping
        self.on_close = on_close
        self.closing = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        pump = asyncio.create_task(self._pump(send))
        gone = asyncio.create_task(self._disconnected(receive))
        overflow = asyncio.create_task(self.overflowed.wait())
        stopping = asyncio.create_task(self.stopping.wait())
        racing = (pump, gone, overflow, stopping)
        try:
            await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.closing = True  # the pump stops even if a cancellation gets lost
            for task in racing:
                task.cancel()
            await asyncio.gather(*racing, return_exceptions=True)
            self.on_close()
            with contextlib.suppress(Exception):
                await self.frames.aclose()  # type: ignore[attr-defined]
        if _ended(pump) or (_ended(stopping) and not _ended(overflow)):
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


def _ended(task: asyncio.Task[object]) -> bool:
    """Whether `task` ran to its end (not cancelled, no exception)."""
    return task.done() and not task.cancelled() and task.exception() is None
