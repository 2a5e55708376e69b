"""/api/v1/events: replay of the event log and a live SSE stream."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import orjson
from starlette.requests import Request
from starlette.responses import Response

from service import clock, state
from service.api import deps
from service.domain.access.scopes import Scope
from service.domain.event_types import EVENT_TYPES, TypeFilter, parse_patterns
from service.errors import validation_error
from service.events.broker import Subscription
from service.events.sse import EventStreamResponse
from service.graph import Graph
from service.models.events import Event, EventPage
from service.openapi import CURSOR, LIMIT, Doc, Param
from service.params import INT64_MAX, Params, integer_value
from service.routing import Route, bearer
from service.store import events as store
from service.store import tokens as token_store
from service.store import users as user_store

BASE = "/api/v1/events"
REPLAY_BATCH = 500


def _types(request: Request, audit: bool) -> TypeFilter:
    """The `types` filter; without `audit` (a reader below admin) `audit.*` is left out."""
    types, problem = parse_patterns(Params(request).many("types"))
    if problem:
        raise validation_error(("query", "types"), problem, "enum")
    return types if audit else types.without_audit()


def _sees_audit(request: Request) -> bool:
    return deps.principal(request).scope >= Scope.ADMIN


def _after(request: Request, header: str | None = None) -> int | None:
    """The sequence number to resume after: `Last-Event-ID` when given (an empty one,
    as an event source may send, is none), else `?after=`."""
    if header:
        return integer_value(header, ("header", "Last-Event-ID"), 0, INT64_MAX)
    raw = request.query_params.get("after")
    return None if raw is None else integer_value(raw, ("query", "after"), 0, INT64_MAX)


async def list_events(request: Request) -> Response:
    paging = deps.paging(request, first=0)
    start = paging.after if "cursor" in request.query_params else (_after(request) or 0)
    types = _types(request, _sees_audit(request))
    rows = await store.after(deps.graph(request), start, types, paging.fetch)
    return paging.respond(rows, key=lambda e: e.seq, render=lambda e: e.envelope())


async def stream_events(request: Request) -> Response:
    principal = deps.principal(request)
    graph = deps.graph(request)
    return await event_stream(
        request,
        Liveness(
            alive=lambda: _token_alive(graph, principal.token_id),
            ends=lambda event: (
                event.type == "token.revoked" and event.data.get("id") == principal.token_id
            ),
        ),
        audit=_sees_audit(request),
    )


@dataclass(frozen=True)
class Liveness:
    """How a stream learns that its reader's credential is gone: `alive` is asked at
    every heartbeat, `ends` is told every live event."""

    alive: Callable[[], Awaitable[bool]]
    ends: Callable[[Event], bool]


async def event_stream(request: Request, liveness: Liveness, *, audit: bool) -> Response:
    """The SSE answer for a reader whose credential `liveness` watches (a token here,
    a session for the dashboard); `audit` says whether it may see the audit trail."""
    header = request.headers.get("last-event-id")
    resume_after = _after(request, header)
    types = _types(request, audit)
    broker = state.of(request).broker
    await broker.ready()
    settings = deps.settings(request).events
    subscription = broker.subscribe()  # before the replay, so nothing falls between
    # A fresh reader starts at the log's head, not at the follower's last poll: events
    # committed before it connected would otherwise arrive up to one poll late.
    try:
        live_from = await store.last_seq(deps.graph(request)) if resume_after is None else 0
    except BaseException:
        broker.unsubscribe(subscription)
        raise
    frames = _stream(
        deps.graph(request),
        subscription,
        live_from,
        liveness,
        types,
        resume_after,
        settings.heartbeat_s,
    )
    return EventStreamResponse(  # type: ignore[return-value]
        frames, subscription.overflowed, lambda: broker.unsubscribe(subscription)
    )


async def _stream(
    graph: Graph,
    subscription: Subscription,
    live_from: int,
    liveness: Liveness,
    types: TypeFilter,
    resume_after: int | None,
    heartbeat_s: float,
) -> AsyncIterator[bytes]:
    """Replay from the log, then go live, skipping what was already sent: the
    subscription was taken first, so nothing is lost or doubled across the switch."""
    sent = live_from if resume_after is None else resume_after
    yield b"retry: 2000\n: connected\n\n"
    if resume_after is not None:
        while True:
            batch = await store.after(graph, sent, types, REPLAY_BATCH)
            for event in batch:
                yield _frame(event)
                sent = event.seq
            if len(batch) < REPLAY_BATCH:
                break
    async for live in _live(subscription, liveness, heartbeat_s):
        if live is None:
            yield b": keepalive\n\n"
        elif live.seq > sent:
            sent = live.seq
            if types.matches(live.type):
                yield _frame(live)


async def _live(
    subscription: Subscription, liveness: Liveness, heartbeat_s: float
) -> AsyncIterator[Event | None]:
    """Live events, None for a heartbeat; ends when the reader falls too far behind
    or its credential is revoked or expires."""
    while not subscription.overflowed.is_set():
        try:
            # Not `asyncio.wait_for`: on Python 3.11 it can swallow a cancellation that
            # arrives as the queue yields, and the stream would outlive its connection.
            async with asyncio.timeout(heartbeat_s):
                event = await subscription.queue.get()
        except TimeoutError:
            if not await liveness.alive():
                return
            yield None
            continue
        if liveness.ends(event):
            return
        yield event


async def _token_alive(graph: Graph, token_id: str) -> bool:
    """Whether the token still authenticates: not revoked or expired, and its user (if
    it has one) neither deleted nor disabled."""
    try:
        token = await token_store.get(graph, token_id)
        user = await user_store.find(graph, token.user_id) if token.user_id else None
    except Exception:
        return True  # a database hiccup is no reason to drop a healthy stream
    expired = token.expires_at is not None and token.expires_at <= clock.now_iso()
    user_gone = token.user_id is not None and (user is None or user.disabled)
    return token.revoked_at is None and not expired and not user_gone


def _frame(event: Event) -> bytes:
    data = orjson.dumps(event.envelope())
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (event.seq, event.type.encode(), data)


routes = [
    Route(BASE, list_events, methods=["GET"], name="list_events", policy=bearer(Scope.READ)),
    Route(
        BASE + "/stream",
        stream_events,
        methods=["GET"],
        name="stream_events",
        policy=bearer(Scope.READ),
    ),
]


def _types_schema() -> dict[str, str]:
    """What `parse_patterns` takes: known types, `<prefix>.*` of some, or `*`, by commas."""
    prefixes = {t[: i + 1] for t in EVENT_TYPES for i, ch in enumerate(t) if ch == "."}
    names = [re.escape(t) for t in sorted(EVENT_TYPES)]
    names += [re.escape(p) + r"\*" for p in sorted(prefixes)]
    one = r"\s*(?:\*|" + "|".join(names) + r")?\s*"
    return {"type": "string", "pattern": f"^{one}(?:,{one})*$"}


_TYPES = Param(
    "types",
    schema=_types_schema(),
    description="comma-separated types or patterns such as `asset.*,quality.rule.failed`",
)
docs = {
    "list_events": Doc(
        "Replay the event log",
        "events",
        description="Events after a sequence number, oldest first. Receivers order by `seq` "
        "and drop duplicates by `id`. The audit trail (`audit.*`) is shown to admin tokens "
        "only.",
        params=(
            Param(
                "after",
                schema={"type": "integer", "minimum": 0, "maximum": INT64_MAX, "default": 0},
            ),
            _TYPES,
            LIMIT,
            CURSOR,
        ),
        responses={200: EventPage},
        errors=(422,),
    ),
    "stream_events": Doc(
        "Live events (Server-Sent Events)",
        "events",
        description="`id:` is the sequence number, `event:` the type, `data:` the envelope. "
        "Resumes after `Last-Event-ID` (or `?after=`). A comment every 15 s keeps proxies "
        "open. A reader that falls 1,000 events behind is disconnected; a revoked token's "
        "streams close. `audit.*` events reach admin tokens only.",
        params=(
            _TYPES,
            Param("after", schema={"type": "integer", "minimum": 0, "maximum": INT64_MAX}),
            Param("Last-Event-ID", where="header"),
        ),
        responses={200: "text/event-stream"},
        errors=(422,),
    ),
}
