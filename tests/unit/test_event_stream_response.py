"""An event stream ends when its reader goes away, even if the frame source swallows
the cancellation (as `asyncio.wait_for` can on Python 3.11): a shutdown must never
wait on a stream whose connection is gone."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.types import Message

from service.events.sse import EventStreamResponse


async def stubborn_frames() -> AsyncIterator[bytes]:
    """Yields heartbeats, swallowing every cancellation it is sent (bounded, so that a
    regression fails this test instead of hanging it)."""
    for _ in range(300):
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(0.01)
        yield b": keepalive\n\n"


def test_a_stream_ends_when_the_reader_leaves_despite_a_lost_cancellation() -> None:
    sent: list[Message] = []
    closed: list[bool] = []

    async def receive() -> dict[str, Any]:
        while len(sent) < 3:  # the reader leaves after a few frames
            await asyncio.sleep(0.005)
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    async def run() -> None:
        response = EventStreamResponse(
            stubborn_frames(), asyncio.Event(), lambda: closed.append(True)
        )
        await asyncio.wait_for(response({"type": "http"}, receive, send), timeout=5)

    asyncio.run(run())
    assert closed == [True]
    assert sent[0]["type"] == "http.response.start"
    frames_after_close = len(sent)
    assert frames_after_close < 50  # it stopped pumping instead of running on
