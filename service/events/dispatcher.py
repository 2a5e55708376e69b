"""Webhook dispatch: fan events out into deliveries, then send what is due.

Every process runs this loop, but only the holder of a lease kept in Neo4j acts,
so with several processes exactly one dispatches, and another takes over within
the lease's lifetime when the holder dies. Deliveries live in Neo4j, so what was
pending survives a restart (even a kill -9); each attempt is claimed in Neo4j
before it is sent, so no attempt goes out twice. Delivery is at least once: a
crash after sending but before recording repeats that attempt, with the same
`webhook-id`, so receivers drop the duplicate.

Each receiver is kept apart from the others. Attempts run as tasks of their own,
and the loop goes on claiming while they are under way, so a receiver that is slow
to answer holds nothing but its own attempts. A claim takes due deliveries in turns
across webhooks, each up to what `ReceiverGate` allows it (a limit of attempts
under way, a circuit breaker), so a webhook with a long backlog cannot crowd the
others out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta
from typing import Any

import orjson

from service import clock
from service.domain.event_types import parse_patterns
from service.domain.secret_box import box_for
from service.domain.webhook_receivers import ReceiverGate
from service.events.attempt import Attempts
from service.events.delivery import MAX_IN_FLIGHT, Deliverer
from service.events.lease import Lease
from service.graph import Graph
from service.ids import new_id
from service.metrics import Metrics
from service.settings import WebhookSettings
from service.store import events as event_store

log = logging.getLogger(__name__)
LEASE = "webhook-dispatcher"
FAN_OUT_BATCH = 500
# A claim outlives its attempt's request by this much, to cover signing and recording:
# an attempt still under way is never claimed again.
CLAIM_MARGIN_S = 45.0


class Dispatcher:
    def __init__(
        self, graph: Graph, settings: WebhookSettings, deliverer: Deliverer, metrics: Metrics
    ) -> None:
        self.graph = graph
        self.settings = settings
        self.lease = Lease(graph, LEASE, settings.lease_ttl_s)
        self.attempts = Attempts(graph, settings, deliverer, metrics, box_for(settings.secret_keys))
        self.gate = ReceiverGate(
            settings.max_in_flight_per_receiver,
            settings.breaker_failures,
            settings.breaker_cooldown_s,
        )
        self._under_way: set[asyncio.Task[None]] = set()
        self._ended = asyncio.Event()  # an attempt ended: its receiver has room again
        self._after = ""  # the webhook the last full claim stopped at: the next starts after it

    @property
    def leading(self) -> bool:
        return self.lease.held

    async def run(self) -> None:
        try:
            while True:
                busy = False
                self._ended.clear()
                try:
                    if await self.lease.take():
                        busy = await self._fan_out()
                        await self._claim_due()
                except Exception:
                    log.warning("webhook dispatch round failed", exc_info=True)
                if not busy:
                    await self._rest()
        finally:
            await self._abandon()

    async def release(self) -> None:
        await self.lease.release()

    async def _rest(self) -> None:
        """Until an attempt ends or the poll interval passes."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.settings.poll_interval_s):
                await self._ended.wait()

    async def _fan_out(self) -> bool:
        cursor_rows = await self.graph.read("leases.cursor", name=LEASE)
        cursor = cursor_rows[0]["cursor"] if cursor_rows else None
        if cursor is None:  # first run ever: start from now, history is not replayed
            cursor = await event_store.last_seq(self.graph)
            await self.graph.write("webhooks.fan_out", deliveries=[], name=LEASE, cursor=cursor)
            return False
        events = await event_store.after(self.graph, int(cursor), None, FAN_OUT_BATCH)
        if not events:
            return False
        hooks = await self.graph.read("webhooks.enabled")
        filters = [
            (h["id"], parse_patterns(list(h["types"]))[0].audit_opt_in(), h["created_at"])
            for h in hooks
        ]
        now = clock.now_iso()
        deliveries = [
            {
                "key": f"{hook_id}:{event.id}",
                "props": {
                    "id": new_id("dlv"),
                    "webhook_id": hook_id,
                    "event_id": event.id,
                    "event_type": event.type,
                    "payload": orjson.dumps(event.envelope()).decode(),
                    "attempts": 0,
                    "state": "pending",
                    "next_attempt_at": now,
                    "created_at": now,
                },
            }
            for event in events
            for hook_id, types, created_at in filters
            if types.matches(event.type) and event.occurred_at >= created_at
        ]
        await self.graph.write(
            "webhooks.fan_out", deliveries=deliveries, name=LEASE, cursor=events[-1].seq
        )
        return len(events) == FAN_OUT_BATCH

    async def _claim_due(self) -> None:
        limit = MAX_IN_FLIGHT - self.gate.in_flight
        if limit <= 0:
            return
        now = clock.now()
        rows = await self.graph.write(
            "webhooks.claim_due",
            now=clock.format_time(now),
            claim_until=clock.format_time(
                now + timedelta(seconds=self.settings.timeout_s + CLAIM_MARGIN_S)
            ),
            holder=self.lease.holder,
            room=self.gate.room(time.monotonic()),
            max_per_webhook=self.gate.max_in_flight,
            after=self._after,
            limit=limit,
        )
        if len(rows) == limit:
            self._after = rows[-1]["webhook"]["id"]
        for row in rows:
            self._start(row["delivery"], row["webhook"])

    def _start(self, delivery: dict[str, Any], webhook: dict[str, Any]) -> None:
        self.gate.started(webhook["id"])
        task = asyncio.create_task(self._attempt(delivery, webhook), name="webhook-attempt")
        self._under_way.add(task)
        task.add_done_callback(self._under_way.discard)

    async def _attempt(self, delivery: dict[str, Any], webhook: dict[str, Any]) -> None:
        ok: bool | None = None
        try:
            ok = await self.attempts.make(delivery, webhook)
        except Exception:  # its claim expires, and the attempt is made again
            log.warning(
                "webhook %s: the attempt at delivery %s did not complete",
                webhook["id"],
                delivery["id"],
                exc_info=True,
            )
        finally:
            if self.gate.finished(webhook["id"], ok, time.monotonic()):
                log.warning(
                    "webhook %s: %d attempts failed in a row; it gets one probe every %g s "
                    "until one succeeds",
                    webhook["id"],
                    self.gate.failures,
                    self.gate.cooldown_s,
                )
            self._ended.set()

    async def _abandon(self) -> None:
        """Stop the attempts under way (on shutdown): each one's claim expires and
        whoever dispatches then makes it again."""
        tasks = list(self._under_way)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
