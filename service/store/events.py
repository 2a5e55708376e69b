"""Reading and trimming the event log over `cypher/events/`."""

from __future__ import annotations

from datetime import timedelta

from service import clock
from service.domain.event_types import TypeFilter
from service.graph import Graph
from service.models.events import Event


async def after(graph: Graph, seq: int, types: TypeFilter | None, limit: int) -> list[Event]:
    types = types or TypeFilter()
    rows = await graph.read(
        "events.after",
        after=seq,
        view=types.view(),
        limit=limit,
    )
    return [Event.from_node(r["event"]) for r in rows]


async def last_seq(graph: Graph) -> int:
    rows = await graph.read("events.last_seq")
    return int(rows[0]["seq"])


async def trim(graph: Graph, retention: timedelta, batch: int = 10_000) -> int:
    before = clock.format_time(clock.now() - retention)
    removed = 0
    while True:
        rows = await graph.write("events.trim", before=before, batch=batch)
        count = int(rows[0]["removed"]) if rows else 0
        removed += count
        if count < batch:
            return removed
