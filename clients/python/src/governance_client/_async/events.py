"""The event log, the live event stream, and webhooks."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import httpx

from governance_client import _admin_calls as admin
from governance_client import _calls as calls
from governance_client._async.paging import paginate
from governance_client._async.resource import AsyncPaged, AsyncResource
from governance_client._call import RequestOptions
from governance_client._sse import Message, SSEParser, StreamConnection
from governance_client.types import (
    Delivery,
    Event,
    Page,
    Webhook,
    WebhookCreated,
    WebhookTestResult,
)

if TYPE_CHECKING:
    from governance_client._async.sender import AsyncSender

DEFAULT_RECONNECT_S = 1.0
"""How long to wait before reconnecting until the service says (``retry:``)."""

OnConnect = Callable[[StreamConnection], object]


class AsyncEvents(AsyncResource):
    """``/events``: the service's event log, oldest first, and its live stream
    (needs the read scope)."""

    path = "/events"

    async def list(
        self,
        *,
        after: int | None = None,
        types: str | Sequence[str] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[Event]:
        """One page of events with ``seq`` greater than ``after``. ``types``: event
        types or patterns such as ``"asset.*"``; any one must match."""
        call = calls.list_events(after=after, types=types, limit=limit, cursor=cursor)
        return await self._client._call(call, options)

    def iter(
        self,
        *,
        after: int | None = None,
        types: str | Sequence[str] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[Event]:
        """Every event after ``after`` up to the newest, page after page (``limit``
        events each). A cursor carries the position, so ``after`` goes with the
        first request only, and not at all when ``cursor`` is given."""
        return paginate(
            lambda at: self.list(
                after=None if at else after,
                types=types,
                limit=limit,
                cursor=at,
                options=options,
            ),
            cursor,
        )

    def stream(
        self,
        *,
        after: int | None = None,
        types: str | Sequence[str] | None = None,
        on_connect: OnConnect | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncEventStream:
        """The live events (``GET /events/stream``), as they happen, for as long as
        the loop runs; ``after``: first replay the events after that ``seq``. Use it
        in a ``with`` block, which connects on entering and disconnects on leaving.
        ``on_connect`` is called with a ``StreamConnection`` each time a connection
        is made, the first and every reconnection, before its first event (a plain
        function, which should return at once)."""
        return AsyncEventStream(
            self._client, types=types, after=after, on_connect=on_connect, options=options
        )


class AsyncEventStream:
    """Server-Sent Events from ``GET /events/stream`` as an iterator of events.

    It connects on entering its ``with`` block (or at the first event), so a change
    made inside the block is seen. When the connection drops, it waits as long as
    the service's ``retry:`` field says and connects again with ``Last-Event-ID``,
    and the service replays what was missed: no gap and no duplicate. Heartbeats
    and comments are skipped. ``last_event_id`` is the ``seq`` of the last event
    returned; ``connections`` counts the connections made, and ``on_connect`` (if
    given) is called as each is made. A failure to connect is retried like any
    request, then raised.
    """

    def __init__(
        self,
        client: AsyncSender,
        *,
        types: str | Sequence[str] | None,
        after: int | None,
        options: RequestOptions | None,
        on_connect: OnConnect | None,
    ) -> None:
        self._client = client
        self._types = types
        self._options = options
        self._on_connect = on_connect
        self.last_event_id = after
        self.connections = 0
        self._parser = SSEParser()
        self._response: httpx.Response | None = None
        self._lines: AsyncIterator[str] | None = None
        self._closed = False

    async def __aenter__(self) -> Self:
        if self._lines is None:
            await self._connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Event:
        while not self._closed:
            if self._lines is None:
                await self._connect()
            line = await self._next_line()
            if line is None:
                await self._disconnect()
                if not self._closed:
                    await self._client._sleep(self.reconnect_delay)
                continue
            message = self._parser.feed(line)
            if message is not None:
                return self._event(message)
        raise StopAsyncIteration

    @property
    def reconnect_delay(self) -> float:
        """Seconds to wait before connecting again: the service's ``retry:``."""
        retry_ms = self._parser.retry_ms
        return DEFAULT_RECONNECT_S if retry_ms is None else retry_ms / 1000

    async def aclose(self) -> None:
        """Disconnect; the loop over the stream ends."""
        self._closed = True
        await self._disconnect()

    async def _connect(self) -> None:
        call = calls.stream_events(self._types, self.last_event_id).with_options(self._options)
        self._response = await self._client._send(call, stream=True)
        self._lines = self._response.aiter_lines()
        self._parser.reset()
        self.connections += 1
        if self._on_connect is not None:
            self._on_connect(StreamConnection(self.connections > 1, self.last_event_id))

    async def _next_line(self) -> str | None:
        """The next line, or None when the connection ended or broke."""
        assert self._lines is not None
        try:
            return await anext(self._lines)
        except (StopAsyncIteration, httpx.TransportError):
            return None

    async def _disconnect(self) -> None:
        response, self._response, self._lines = self._response, None, None
        if response is not None:
            await response.aclose()

    def _event(self, message: Message) -> Event:
        event: Event = json.loads(message.data)
        if message.id is not None and message.id.isdigit():
            self.last_event_id = int(message.id)
        return event


class AsyncWebhooks(AsyncPaged[Webhook]):
    """``/webhooks``: endpoints the service delivers events to, signed the Standard
    Webhooks way (check them with ``verify_webhook``). Needs the admin scope."""

    path = "/webhooks"

    async def create(
        self,
        url: str,
        *,
        types: str | Sequence[str] | None = None,
        enabled: bool | None = None,
        description: str | None = None,
        options: RequestOptions | None = None,
    ) -> WebhookCreated:
        """Register an endpoint for events matching ``types`` (patterns such as
        ``"asset.*"``; default every event). Its signing secret is in
        ``result["secret"]`` and nowhere else, ever; not retried for that reason."""
        call = admin.create_webhook(url, types, enabled, description)
        return await self._client._call(call, options)

    async def get(self, id: str, *, options: RequestOptions | None = None) -> Webhook:
        return await self._client._call(admin.get_webhook(id), options)

    async def patch(
        self, id: str, changes: Mapping[str, Any], *, options: RequestOptions | None = None
    ) -> Webhook:
        """Change ``url``, ``types``, ``enabled`` or ``description`` (JSON Merge Patch);
        enabling a disabled webhook clears its failure state."""
        return await self._client._call(admin.patch_webhook(id, changes), options)

    async def delete(self, id: str, *, options: RequestOptions | None = None) -> None:
        """Delete a webhook; its pending deliveries are dropped."""
        await self._client._call(admin.delete_webhook(id), options)

    async def test(
        self,
        id: str,
        *,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> WebhookTestResult:
        """Send a signed ``webhook.test`` event now and say how the endpoint answered."""
        return await self._client._call(admin.test_webhook(id, idempotency_key), options)

    async def list_deliveries(
        self,
        id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[Delivery]:
        """One page of the webhook's delivery log."""
        call = admin.list_deliveries(id, limit=limit, cursor=cursor)
        return await self._client._call(call, options)

    def iter_deliveries(
        self,
        id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[Delivery]:
        """The whole delivery log of the webhook, page after page."""
        return paginate(
            lambda at: self.list_deliveries(id, limit=limit, cursor=at, options=options), cursor
        )
