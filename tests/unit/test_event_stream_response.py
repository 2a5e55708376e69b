"""An event stream ends when its reader goes away, even if the frame source swallows
the cancellation (as `asyncio.wait_for` can on Python 3.11): a shutdown must never
wait on a stream whose connection is gone. When the process closes its streams, each
ends at once as a finished response; on overflow it ends unfinished."""

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
            stubborn_frames(), asyncio.Event(), asyncio.Event(), lambda: closed.append(True)
        )
        await asyncio.wait_for(response({"type": "http"}, receive, send), timeout=5)

    asyncio.run(run())
    assert closed == [True]
    assert sent[0]["type"] == "http.response.start"
    frames_after_close = len(sent)
    assert frames_after_close < 50  # it stopped pumping instead of running on


async def endless_frames() -> AsyncIterator[bytes]:
    while True:
        await asyncio.sleep(0.01)
        yield b": keepalive\n\n"


async def reader_stays() -> dict[str, Any]:
    await asyncio.Event().wait()  # never leaves; the test's own timeout bounds it
    raise AssertionError("unreachable")


def stream_until(set_after_frames: str) -> tuple[list[Message], list[bool]]:
    """Runs a stream whose reader never leaves until, after three frames, the event
    named `set_after_frames` ("stopping" or "overflowed") is set; its messages."""
    sent: list[Message] = []
    closed: list[bool] = []

    async def run() -> None:
        events = {"overflowed": asyncio.Event(), "stopping": asyncio.Event()}

        async def send(message: Message) -> None:
            sent.append(message)
            if len(sent) == 3:
                events[set_after_frames].set()

        response = EventStreamResponse(
            endless_frames(), events["overflowed"], events["stopping"], lambda: closed.append(True)
        )
        await asyncio.wait_for(response({"type": "http"}, reader_stays, send), timeout=5)

    asyncio.run(run())
    return sent, closed


def test_a_stream_the_process_closes_ends_as_a_finished_response() -> None:
    sent, closed = stream_until("stopping")
    assert closed == [True]
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert all(message.get("more_body", True) for message in sent[:-1])


def test_a_stream_that_overflows_ends_unfinished() -> None:
    sent, closed = stream_until("overflowed")
    assert closed == [True]
    assert all(message.get("more_body", True) for message in sent)
