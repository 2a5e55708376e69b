"""How far each consumer of the outbox has got, for the lag metrics.

The live streams' follower keeps its place in this process; webhook dispatch and
policy evaluation keep theirs in Neo4j, on their leases, so every process reports
the same numbers for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.events import dispatcher, policy_evaluator
from service.events.broker import Broker
from service.graph import Graph, Reader

LEASED = {"webhooks": dispatcher.LEASE, "policies": policy_evaluator.LEASE}


@dataclass(frozen=True)
class Progress:
    newest: int
    positions: dict[str, int | None]


async def progress(graph: Graph, broker: Broker) -> Progress:
    async def read(reader: Reader) -> Progress:
        newest = (await reader.run("events.last_seq"))[0]["seq"]
        positions: dict[str, int | None] = {"sse": broker.last_seq if broker.started else None}
        for consumer, lease in LEASED.items():
            cursor = (await reader.run("leases.cursor", name=lease))[0]["cursor"]
            positions[consumer] = None if cursor is None else int(cursor)
        return Progress(int(newest), positions)

    return await graph.read_session(read)
