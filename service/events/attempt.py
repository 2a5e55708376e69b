"""One attempt at one claimed webhook delivery: sign it, send it, and record what
became of it (delivered, scheduled again, given up), then keep the webhook's health:
a 410, or failing for longer than `GOVERNANCE_WEBHOOK_DISABLE_AFTER`, disables it
with a `webhook.disabled` event."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

import orjson

from service import clock
from service.domain import webhook_signing as signing
from service.domain.secret_box import SecretBox, SecretUnreadable
from service.domain.webhook_retry import next_delay
from service.events.delivery import Deliverer, Outcome
from service.graph import Graph, Tx
from service.metrics import Metrics
from service.settings import WebhookSettings
from service.store import webhooks as webhook_store
from service.store.outbox import emit

log = logging.getLogger(__name__)
ACTOR = "system:webhooks"


class Attempts:
    def __init__(
        self,
        graph: Graph,
        settings: WebhookSettings,
        deliverer: Deliverer,
        metrics: Metrics,
        box: SecretBox,
    ) -> None:
        self.graph = graph
        self.settings = settings
        self.deliverer = deliverer
        self.metrics = metrics
        self.box = box

    async def make(self, delivery: dict[str, Any], webhook: dict[str, Any]) -> bool | None:
        """Whether the receiver took the delivery; None when nothing was sent to it."""
        if not webhook.get("enabled"):
            await self._record(delivery, "cancelled", None, Outcome(None, "webhook disabled", None))
            return None
        body = delivery["payload"].encode()
        try:
            secret = await webhook_store.signing_secret(self.graph, self.box, webhook)
        except SecretUnreadable as exc:  # the keys are wrong: retried, so a fixed key heals it
            log.error("webhook %s: %s", webhook["id"], exc.detail)
            await self._retry_or_fail(delivery, Outcome(None, exc.detail, None))
            return None
        headers = signing.headers(secret, delivery["event_id"], int(time.time()), body)
        outcome = await self.deliverer.post(webhook["url"], headers, body)
        self.metrics.webhook_lag.observe(_age(delivery["payload"]))
        if outcome.ok:
            await self._record(delivery, "delivered", None, outcome)
        elif outcome.status == 410:
            await self._record(delivery, "failed", None, outcome)
            await self._disable(webhook["id"], "the receiver answered 410 Gone")
            return False
        else:
            await self._retry_or_fail(delivery, outcome)
        await self._health(webhook["id"], outcome.ok)
        return outcome.ok

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
