"""Background policy evaluation after changes, debounced, off the request path.

Like webhook dispatch, every process runs the loop and only the holder of a
lease in Neo4j acts. Its progress is a cursor into the event log, also in Neo4j,
so a change is never missed: not across restarts, nor when another process takes
the lease over. A burst of changes is evaluated once, after `debounce_s` of quiet
or at most `max_delay_s` after the first change. A failed round is retried on the
next poll and never touches the requests that made the changes.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from service import clock
from service.domain.policies import TRIGGERS
from service.events.lease import Lease
from service.graph import Graph
from service.metrics import Metrics
from service.settings import PolicySettings
from service.store import policies as store

log = logging.getLogger(__name__)
LEASE = "policy-evaluator"


class PolicyEvaluator:
    def __init__(
        self, graph: Graph, settings: PolicySettings, max_depth: int, metrics: Metrics
    ) -> None:
        self.graph = graph
        self.settings = settings
        self.max_depth = max_depth
        self.metrics = metrics
        self.lease = Lease(graph, LEASE, settings.lease_ttl_s)

    @property
    def poll_s(self) -> float:
        return max(0.05, min(1.0, self.settings.debounce_s / 2))

    async def run(self) -> None:
        """Renew the lease a few times per lifetime; between renewals a poll is one read."""
        renew_every = self.settings.lease_ttl_s / 3
        renew_at = 0.0
        loop = asyncio.get_running_loop()
        while True:
            try:
                if loop.time() >= renew_at:
                    await self.lease.take()
                    renew_at = loop.time() + renew_every
                if self.lease.held:
                    await self._round()
            except Exception:
                renew_at = 0.0
                log.warning("policy evaluation round failed; retrying", exc_info=True)
            await asyncio.sleep(self.poll_s)

    async def release(self) -> None:
        await self.lease.release()

    async def _round(self) -> None:
        pending = (
            await self.graph.read("policies.pending_changes", name=LEASE, triggers=list(TRIGGERS))
        )[0]
        if pending["newest"] is None:
            return
        if pending["last_trigger"] is not None:
            if not self._due(pending["first_at"], pending["last_at"]):
                return
            await self.evaluate_all()
        await self.graph.write(
            "leases.advance", name=LEASE, holder=self.lease.holder, cursor=pending["newest"]
        )

    def _due(self, first_at: str, last_at: str) -> bool:
        now = clock.now()
        quiet = now - _parse(last_at) >= timedelta(seconds=self.settings.debounce_s)
        waited = now - _parse(first_at) >= timedelta(seconds=self.settings.max_delay_s)
        return quiet or waited

    async def evaluate_all(self) -> None:
        for policy_id in await store.policy_ids(self.graph):
            with self.metrics.policy_evaluation.time():
                await store.evaluate(self.graph, policy_id, self.max_depth, self.settings.timeout_s)


def _parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))
