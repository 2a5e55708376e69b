"""Webhook dispatch: fan events out into deliveries, then send what is due.

Every process runs this loop, but only the holder of a lease kept in Neo4j acts,
so with several processes exactly one dispatches, and another takes over within
the lease's lifetime when the holder dies. Deliveries live in Neo4j, so what was
pending survives a restart (even a kill -9); each attempt is claimed in Neo4j
before it is sent, so no attempt goes out twice. Delivery is at least once: a
crash after sending but before recording repeats that attempt, with the same
`webhook-id`, so receivers drop the duplicate.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta
from typing import Any

import orjson

from service import clock
from service.domain import webhook_signing as signing
from service.domain.event_types import parse_patterns
from service.domain.secret_box import SecretUnreadable, box_for
from service.domain.webhook_retry import next_delay
from service.events.delivery import Deliverer, Outcome
from service.events.lease import Lease
from service.graph import Graph, Tx
from service.ids import new_id
from service.metrics import Metrics
from service.settings import WebhookSettings
from service.store import events as event_store
from service.store import webhooks as webhook_store
from service.store.outbox import emit

log = logging.getLogger(__name__)
LEASE = "webhook-dispatcher"
FAN_OUT_BATCH = 500
DELIVERY_BATCH = 20
CLAIM_S = 60.0
ACTOR = "system:webhooks"


class Dispatcher:
    def __init__(
        self, graph: Graph, settings: WebhookSettings, deliverer: Deliverer, metrics: Metrics
    ) -> None:
        self.graph = graph
        self.settings = settings
        self.deliverer = deliverer
        self.metrics = metrics
        self.lease = Lease(graph, LEASE, settings.lease_ttl_s)
        self.box = box_for(settings.secret_keys)

    @property
    def leading(self) -> bool:
        return self.lease.held

    async def run(self) -> None:
        while True:
            busy = False
            try:
                if await self.lease.take():
                    busy = await self._fan_out() | await self._deliver_due()
            except Exception:
                log.warning("webhook dispatch round failed", exc_info=True)
            if not busy:
                await asyncio.sleep(self.settings.poll_interval_s)

    async def release(self) -> None:
        await self.lease.release()

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

    async def _deliver_due(self) -> bool:
        now = clock.now()
        rows = await self.graph.write(
            "webhooks.claim_due",
            now=clock.format_time(now),
            claim_until=clock.format_time(now + timedelta(seconds=CLAIM_S)),
            holder=self.lease.holder,
            limit=DELIVERY_BATCH,
        )
        await asyncio.gather(*(self._attempt(r["delivery"], r["webhook"]) for r in rows))
        return len(rows) == DELIVERY_BATCH

    async def _attempt(self, delivery: dict[str, Any], webhook: dict[str, Any]) -> None:
        if not webhook.get("enabled"):
            await self._record(delivery, "cancelled", None, Outcome(None, "webhook disabled", None))
            return
        body = delivery["payload"].encode()
        try:
            secret = await webhook_store.signing_secret(self.graph, self.box, webhook)
        except SecretUnreadable as exc:  # the keys are wrong: retried, so a fixed key heals it
            log.error("webhook %s: %s", webhook["id"], exc.detail)
            await self._retry_or_fail(delivery, Outcome(None, exc.detail, None))
            return
        headers = signing.headers(secret, delivery["event_id"], int(time.time()), body)
        outcome = await self.deliverer.post(webhook["url"], headers, body)
        self.metrics.webhook_lag.observe(_age(delivery["payload"]))
        if outcome.ok:
            await self._record(delivery, "delivered", None, outcome)
        elif outcome.status == 410:
            await self._record(delivery, "failed", None, outcome)
            await self._disable(webhook["id"], "the receiver answered 410 Gone")
            return
        else:
            await self._retry_or_fail(delivery, outcome)
        await self._health(webhook["id"], outcome.ok)

    async def _retry_or_fail(self, delivery: dict[str, Any], outcome: Outcome) -> None:
        attempts = int(delivery["attempts"]) + 1
        delay = next_delay(attempts, self.settings.retry_schedule, outcome.retry_after_s)
        when = None if delay is None else clock.format_time(clock.now() + timedelta(seconds=delay))
        await self._record(delivery, "failed" if delay is None else "pending", when, outcome)

    async def _record(
        self, delivery: dict[str, Any], state: str, next_at: str | None, outcome: Outcome
    ) -> None:
        self.metrics.webhook_deliveries.labels("retrying" if state == "pending" else state).inc()
        await self.graph.write(
            "webhooks.record_attempt",
            id=delivery["id"],
            state=state,
            next_attempt_at=next_at,
            status=outcome.status,
            error=outcome.error,
            now=clock.now_iso(),
        )

    async def _health(self, webhook_id: str, ok: bool) -> None:
        rows = await self.graph.write("webhooks.health", id=webhook_id, ok=ok, now=clock.now_iso())
        failing_since = rows[0]["webhook"].get("failing_since") if rows else None
        if failing_since:
            horizon = clock.format_time(
                clock.now() - timedelta(seconds=self.settings.disable_after_s)
            )
            if failing_since <= horizon:
                await self._disable(webhook_id, "deliveries failed for too long")

    async def _disable(self, webhook_id: str, reason: str) -> None:
        async def work(tx: Tx) -> None:
            rows = await tx.run(
                "webhooks.disable", id=webhook_id, reason=reason, now=clock.now_iso()
            )
            if rows and rows[0]["disabled"]:
                emit(tx, "webhook.disabled", {"webhook_id": webhook_id, "reason": reason}, ACTOR)

        await self.graph.write_tx(work)


def _age(payload: str) -> float:
    """Seconds since the event a delivery carries happened."""
    occurred = datetime.fromisoformat(orjson.loads(payload)["occurred_at"])
    return max(0.0, (clock.now() - occurred).total_seconds())
