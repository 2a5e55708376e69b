"""The live event stream on a scripted transport: Server-Sent Events parsed, heartbeats
skipped, a dropped connection resumed with Last-Event-ID after the service's
``retry:``, failures to connect retried and then raised. No network."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from scripted import Script, problem

from governance_client import (
    AsyncClient,
    AuthenticationError,
    Client,
    StreamConnection,
    UnavailableError,
)
from governance_client._sse import Message, SSEParser

HELLO = b"retry: 2000\n: connected\n\n"


def frame(seq: int, kind: str = "asset.created") -> bytes:
    envelope = {"id": f"evt_{seq}", "seq": seq, "type": kind, "data": {"id": f"a{seq}"}}
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, kind.encode(), json.dumps(envelope).encode())


def stream(*chunks: bytes, drop: bool = False) -> Callable[[httpx.Request], httpx.Response]:
    """An answer whose body is ``chunks``, then a broken connection if ``drop``."""

    def body() -> Iterator[bytes]:
        yield from chunks
        if drop:
            raise httpx.ReadError("connection reset by peer")

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body())

    return reply


# -- the parser -------------------------------------------------------------------


def feed(parser: SSEParser, text: str) -> list[Message]:
    messages = [parser.feed(line) for line in text.split("\n")]
    return [m for m in messages if m is not None]


def test_the_parser_joins_data_lines_and_skips_comments() -> None:
    parser = SSEParser()
    text = ": hello\nretry: 1500\nid: 7\nevent: x\ndata: one\ndata:two\n\n: keepalive\n\n"
    assert feed(parser, text) == [Message(event="x", data="one\ntwo", id="7")]
    assert (parser.retry_ms, parser.last_id) == (1500, "7")


def test_the_parser_keeps_the_id_and_defaults_the_event() -> None:
    parser = SSEParser()
    assert feed(parser, "id: 3\n\ndata: {}\n\nretry: soon\n") == [
        Message(event="message", data="{}", id="3")
    ]
    assert parser.retry_ms is None


def test_a_message_cut_short_is_forgotten() -> None:
    parser = SSEParser()
    feed(parser, "id: 1\ndata: half")
    parser.reset()
    assert feed(parser, "data: whole\n\n") == [Message(event="message", data="whole", id="1")]


# -- the blocking stream ----------------------------------------------------------


def test_events_arrive_and_heartbeats_are_skipped(make: Callable[..., Client]) -> None:
    script = Script(stream(HELLO, b": keepalive\n\n", frame(1), b": keepalive\n\n", frame(2)))
    with make(script).events.stream(types=["asset.*", "policy.*"]) as events:
        assert events.connections == 1
        seen = [next(events)["seq"], next(events)["seq"]]
    assert seen == [1, 2]
    assert events.last_event_id == 2
    request = script.requests[0]
    assert (request.method, request.url.path) == ("GET", "/api/v1/events/stream")
    assert dict(request.url.params) == {"types": "asset.*,policy.*"}
    assert request.headers["accept"] == "text/event-stream"
    assert "last-event-id" not in request.headers


def test_a_dropped_connection_resumes_after_the_last_event(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    script = Script(
        stream(HELLO, frame(5), frame(6), b'id: 7\ndata: {"cut', drop=True),
        stream(HELLO, frame(7), frame(8)),
    )
    with make(script).events.stream(after=4) as events:
        seqs = [next(events)["seq"] for _ in range(4)]
    assert seqs == [5, 6, 7, 8]
    assert events.connections == 2
    assert [r.headers.get("last-event-id") for r in script.requests] == ["4", "6"]
    assert sleeps == [2.0]  # the service's retry: 2000


def test_a_stream_the_service_ends_is_reconnected(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    script = Script(stream(frame(1)), stream(b"retry: 500\n\n", frame(2)))
    events = make(script).events.stream()
    assert [next(events)["seq"], next(events)["seq"]] == [1, 2]
    events.close()
    assert sleeps == [1.0]  # no retry: field yet, so the default
    assert list(events) == []
    assert script.requests[1].headers["last-event-id"] == "1"


def test_a_failure_to_connect_is_retried_then_raised(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    script = Script(*[problem(503, "neo4j_unavailable") for _ in range(3)])
    with pytest.raises(UnavailableError), make(script).events.stream():
        pass
    assert len(script.requests) == 3
    assert sleeps == [0.25, 0.5]


def test_a_revoked_token_ends_the_stream_with_an_error(make: Callable[..., Client]) -> None:
    script = Script(stream(HELLO, frame(1)), problem(401, "invalid_token"))
    with make(script).events.stream() as events:
        assert next(events)["seq"] == 1
        with pytest.raises(AuthenticationError):
            next(events)


def test_per_call_options_go_with_every_connection(make: Callable[..., Client]) -> None:
    script = Script(stream(frame(1), drop=True), stream(frame(2)))
    options: Any = {"request_id": "feed-1", "headers": {"X-Tenant": "t1"}}
    with make(script).events.stream(options=options) as events:
        assert [next(events)["seq"], next(events)["seq"]] == [1, 2]
    assert [r.headers["x-request-id"] for r in script.requests] == ["feed-1", "feed-1"]
    assert [r.headers["x-tenant"] for r in script.requests] == ["t1", "t1"]


def test_on_connect_is_told_of_every_connection_before_its_events(
    make: Callable[..., Client],
) -> None:
    script = Script(
        stream(HELLO, frame(5), drop=True),
        problem(503, "neo4j_unavailable"),
        stream(HELLO, frame(6)),
    )
    told: list[tuple[StreamConnection, int]] = []
    seen: list[int] = []

    def on_connect(connection: StreamConnection) -> None:
        told.append((connection, len(seen)))

    with make(script).events.stream(after=4, on_connect=on_connect) as events:
        assert told == [(StreamConnection(reconnect=False, last_event_id=4), 0)]
        seen.extend(next(events)["seq"] for _ in range(2))
    assert seen == [5, 6]
    # The failed attempt in between connected nothing, so it is not told.
    assert told == [
        (StreamConnection(reconnect=False, last_event_id=4), 0),
        (StreamConnection(reconnect=True, last_event_id=5), 1),
    ]


# -- the asyncio stream ------------------------------------------------------------


def astream(*chunks: bytes, drop: bool = False) -> Callable[[httpx.Request], httpx.Response]:
    async def body() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk
        if drop:
            raise httpx.ReadError("connection reset by peer")

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body())

    return reply


@pytest.mark.anyio
async def test_the_async_stream_resumes_too() -> None:
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    script = Script(astream(HELLO, frame(1), drop=True), astream(HELLO, frame(2)))
    async with (
        AsyncClient(
            base_url="http://gov.test",
            token="t",
            transport=httpx.MockTransport(script),
            sleep=sleep,
        ) as client,
        client.events.stream(types="asset.*") as events,
    ):
        seqs = []
        async for event in events:
            seqs.append(event["seq"])
            if len(seqs) == 2:
                break
    assert seqs == [1, 2]
    assert sleeps == [2.0]
    assert script.requests[1].headers["last-event-id"] == "1"


@pytest.mark.anyio
async def test_the_async_stream_tells_on_connect_too() -> None:
    async def sleep(seconds: float) -> None:
        pass

    told: list[StreamConnection] = []
    script = Script(astream(frame(1), drop=True), astream(frame(2)))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script), sleep=sleep
    ) as client:
        events = client.events.stream(on_connect=told.append)
        assert [(await anext(events))["seq"], (await anext(events))["seq"]] == [1, 2]
        await events.aclose()
    assert told == [StreamConnection(False, None), StreamConnection(True, 1)]
