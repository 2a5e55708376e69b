"""/api/v1/events: replay of the event log and a live SSE stream."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from service import state
from service.api import deps
from service.domain import event_privacy
from service.domain.access import domain_rules
from service.domain.access.principal import Principal
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

BASE = "/api/v1/events"
REPLAY_BATCH = 500


def _types(request: Request) -> TypeFilter:
    """The `types` filter as the reader asked it (what they may see is applied after)."""
    types, problem = parse_patterns(Params(request).many("types"))
    if problem:
        raise validation_error(("query", "types"), problem, "enum")
    return types


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
    principal = deps.principal(request)
    readable = domain_rules.readable_private(principal)
    types = _types(request).for_reader(principal.global_scope >= Scope.ADMIN, principal.user_id)
    rows = await store.after(deps.graph(request), start, types.within(readable), paging.fetch)
    return paging.respond(rows, key=lambda e: e.seq, render=lambda e: envelope(e, readable))


async def stream_events(request: Request) -> Response:
    principal = deps.principal(request)
    graph = deps.graph(request)
    return await event_stream(
        request,
        Reader(
            admin=principal.global_scope >= Scope.ADMIN,
            user_id=principal.user_id,
            readable=domain_rules.readable_private(principal),
            standing=lambda: token_store.standing(graph, principal.token_id),
            ends=lambda event: (
                event.type == "token.revoked" and event.data.get("id") == principal.token_id
            ),
        ),
    )


@dataclass
class Reader:
    """Who reads a stream, and how the stream learns that this changed. `standing` is
    the reader as it is now (None: the credential is gone, or raises when the database
    cannot say); it is asked at every heartbeat, again before every event only an admin
    may see, and after every event that may change what the reader may read (a team,
    a domain or a user changed), so a reader demoted, disabled, revoked or signed out,
    or one whose role in a private domain ended, is sent none after that moment.
    `readable`: the private domains whose events it may see (None: all, a global
    admin). `ends` is told every live event."""

    admin: bool
    user_id: str | None
    readable: tuple[str, ...] | None
    standing: Callable[[], Awaitable[Principal | None]]
    ends: Callable[[Event], bool]

    def _learn(self, now: Principal) -> None:
        self.admin = self.admin and now.global_scope >= Scope.ADMIN
        self.readable = domain_rules.readable_private(now)

    async def still_admin(self) -> bool | None:
        """Whether the reader is an admin now (False from then on once they are not);
        None when their credential is gone. A database hiccup withholds the event."""
        try:
            now = await self.standing()
        except Exception:
            return False
        if now is None:
            return None
        self._learn(now)
        return self.admin

    async def reread(self) -> bool:
        """After an event that may change its access: False when the credential is
        gone. A database hiccup withholds every private domain's events until the next
        heartbeat reads the reader again."""
        try:
            now = await self.standing()
        except Exception:
            self.readable = ()
            return True
        if now is None:
            return False
        self._learn(now)
        return True

    async def alive(self) -> bool:
        try:
            now = await self.standing()
        except Exception:
            return True  # a database hiccup is no reason to drop a healthy stream
        if now is not None:
            self._learn(now)
        return now is not None


class _Gone(Exception):
    """The reader's credential ended while the stream was open."""


async def event_stream(request: Request, reader: Reader) -> Response:
    """The SSE answer for `reader` (a token here, a session for the dashboard)."""
    header = request.headers.get("last-event-id")
    resume_after = _after(request, header)
    view = _View(_types(request), reader)
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
        view,
        resume_after,
        settings.heartbeat_s,
    )
    return EventStreamResponse(  # type: ignore[return-value]
        frames, subscription.overflowed, broker.closing, lambda: broker.unsubscribe(subscription)
    )


class _View:
    """What one stream sends: the types asked for, as far as the reader may see them.
    An event only an admin may see (`audit.*`, another user's `token.*`) goes out only
    after the reader's standing was checked again; once they are no admin, never."""

    def __init__(self, asked: TypeFilter, reader: Reader) -> None:
        self.asked = asked
        self.below_admin = asked.for_reader(False, reader.user_id)
        self.reader = reader

    @property
    def types(self) -> TypeFilter:
        chosen = self.asked if self.reader.admin else self.below_admin
        return chosen.within(self.reader.readable)

    def needs_admin(self, event: Event) -> bool:
        return not self.below_admin.matches(event.type, event.owner)

    async def sendable(self, events: list[Event]) -> list[Event]:
        """The events of `events` to send, checking the reader's standing once for them
        all (each was committed before this call); raises `_Gone` when it ended."""
        types = self.types
        wanted = [
            e
            for e in events
            if types.matches(e.type, e.owner) and event_privacy.shows(types.readable, e.hides_in)
        ]
        if any(self.needs_admin(e) for e in wanted):
            admin = await self.reader.still_admin()
            if admin is None:
                raise _Gone
            if not admin:
                wanted = [e for e in wanted if not self.needs_admin(e)]
        return wanted


async def _stream(
    graph: Graph,
    subscription: Subscription,
    live_from: int,
    view: _View,
    resume_after: int | None,
    heartbeat_s: float,
) -> AsyncIterator[bytes]:
    """Replay from the log, then go live, skipping what was already sent: the
    subscription was taken first, so nothing is lost or doubled across the switch."""
    sent = live_from if resume_after is None else resume_after
    yield b"retry: 2000\n: connected\n\n"
    try:
        if resume_after is not None:
            while True:
                batch = await store.after(graph, sent, view.types, REPLAY_BATCH)
                for event in await view.sendable(batch):
                    yield _frame(event, view.reader.readable)
                sent = batch[-1].seq if batch else sent
                if len(batch) < REPLAY_BATCH:
                    break
        async for live in _live(subscription, view.reader, heartbeat_s):
            if live is None:
                yield b": keepalive\n\n"
            elif live.seq > sent:
                sent = live.seq
                changes_access = live.type.startswith(event_privacy.ACCESS_CHANGES)
                if changes_access and not await view.reader.reread():
                    return
                for event in await view.sendable([live]):
                    yield _frame(event, view.reader.readable)
    except _Gone:
        return


async def _live(
    subscription: Subscription, reader: Reader, heartbeat_s: float
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
            if not await reader.alive():
                return
            yield None
            continue
        if reader.ends(event):
            return
        yield event


def envelope(event: Event, readable: tuple[str, ...] | None) -> dict[str, Any]:
    """The event as a reader who may read the private domains `readable` sees it: the
    assets it mentions in others as stand-ins, the owners of those only left out."""
    shown = event.envelope()
    if event.hidden or event.hidden_owners:
        shown["data"] = event_privacy.redact_mentions(
            event.type, shown["data"], event.hidden, readable, event.hidden_owners
        )
    return shown


def seen_by(event: Event, readable: tuple[str, ...] | None) -> Event:
    """`envelope` as an event, for pages that render one."""
    if not (event.hidden or event.hidden_owners):
        return event
    return event.model_copy(update={"data": envelope(event, readable)["data"]})


def _frame(event: Event, readable: tuple[str, ...] | None) -> bytes:
    data = orjson.dumps(envelope(event, readable))
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
        "only; `token.*` events to admin tokens and to the token's own user. An event about "
        "an asset in a private domain (an edge: either end; a `domain.*` event: a private "
        "domain) is left out for a caller with no role in that domain, and assets an event "
        "only mentions (a failing rule's downstream, a finding's path) are `redacted:<n>` "
        "stand-ins to them; global admins see everything.",
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
        "streams close. `audit.*` events reach admin tokens only, `token.*` events admins "
        "and the token's own user; the reader's standing is checked again before each "
        "such event, so a reader demoted meanwhile is sent none (and a disabled or revoked "
        "one's stream closes). Events about a private domain's assets, and a private "
        "domain's own, reach only readers with a role in it (and global admins), as in "
        "the log; the reader's roles are read again after every `team.*`, `domain.*` and "
        "`audit.user.*` event, so the events after a membership or grant change follow it.",
        params=(
            _TYPES,
            Param("after", schema={"type": "integer", "minimum": 0, "maximum": INT64_MAX}),
            Param("Last-Event-ID", where="header"),
        ),
        responses={200: "text/event-stream"},
        errors=(422,),
    ),
}
