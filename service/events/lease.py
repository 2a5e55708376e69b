"""A named lease in Neo4j: the way several processes agree that one of them acts
(webhook dispatch, policy evaluation). A holder that stops renewing, because it
died, is replaced once the lease expires."""

from __future__ import annotations

import logging
from datetime import timedelta

from service import clock
from service.graph import Graph
from service.ids import new_id

log = logging.getLogger(__name__)


class Lease:
    def __init__(self, graph: Graph, name: str, ttl_s: float) -> None:
        self.graph = graph
        self.name = name
        self.ttl_s = ttl_s
        self.holder = new_id("proc")
        self.held = False

    async def take(self) -> bool:
        """Take or renew; whether this process holds the lease now."""
        now = clock.now()
        rows = await self.graph.write(
            "leases.take",
            name=self.name,
            holder=self.holder,
            now=clock.format_time(now),
            expires_at=clock.format_time(now + timedelta(seconds=self.ttl_s)),
        )
        self.held = bool(rows) and rows[0]["holder"] == self.holder
        return self.held

    async def release(self) -> None:
        """Best effort, on a clean shutdown, so another process takes over at once.
        Not wrapped in a timeout of ours: cancelling a connection attempt half-way leaks
        its socket; the driver's own connection timeout bounds the wait."""
        if not self.held:
            return
        try:
            await self.graph.write("leases.release", name=self.name, holder=self.holder)
        except Exception:
            log.info("could not release the %s lease", self.name, exc_info=True)
