"""Each process follows the outbox and fans events out to its own live streams.

Following the outbox (rather than publishing in-process after a write) is what
makes streams work with several service processes on one Neo4j: an event written
through process A reaches a stream held by process B. Sequence numbers are
handed out in commit order, so polling `seq > last` never skips one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from service.graph import Graph
from service.models.events import Event
from service.store import events as store

log = logging.getLogger(__name__)
BATCH = 500


class Subscription:
    """A bounded queue: a reader that falls too far behind is dropped, not buffered."""

    def __init__(self, capacity: int) -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue(capacity)
        self.overflowed = asyncio.Event()

    def offer(self, event: Event) -> None:
        if self.overflowed.is_set():
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.overflowed.set()


class Broker:
    def __init__(
        self,
        graph: Graph,
        poll_interval_s: float,
        capacity: int,
        on_count: Callable[[int], None] = lambda count: None,
    ) -> None:
        """`on_count` hears the number of live streams whenever it changes (the
        metrics' gauge, which other processes read from a file between scrapes)."""
        self.graph = graph
        self.poll_interval_s = poll_interval_s
        self.capacity = capacity
        self.last_seq = 0
        self._subscribers: set[Subscription] = set()
        self._on_count = on_count
        self._started = asyncio.Event()
        self.closing = asyncio.Event()

    async def run(self) -> None:
        """Poll forever; start from the newest event, live streams replay older ones."""
        while not self._started.is_set():
            try:
                self.last_seq = await store.last_seq(self.graph)
                self._started.set()
            except Exception:
                log.warning("event follower cannot reach Neo4j yet", exc_info=True)
                await asyncio.sleep(1.0)
        while True:
            try:
                events = await store.after(self.graph, self.last_seq, None, BATCH)
            except Exception:
                log.warning("event follower poll failed", exc_info=True)
                events = []
            for event in events:
                self.last_seq = event.seq
                for subscriber in list(self._subscribers):
                    subscriber.offer(event)
            if len(events) < BATCH:
                await asyncio.sleep(self.poll_interval_s)

    async def ready(self) -> None:
        await self._started.wait()

    def subscribe(self) -> Subscription:
        subscription = Subscription(self.capacity)
        self._subscribers.add(subscription)
        self._on_count(len(self._subscribers))
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        self._subscribers.discard(subscription)
        self._on_count(len(self._subscribers))

    def close(self) -> None:
        """The process is stopping: every live stream ends now, as a finished response,
        rather than holding the shutdown until the server gives up and cancels it.
        Its reader reconnects (to another process) and resumes with Last-Event-ID."""
        self.closing.set()

    @property
    def started(self) -> bool:
        return self._started.is_set()
