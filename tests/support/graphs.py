"""A store step run the way a service process runs it: on a `Graph` of its own (the
service's driver settings and named statements), in an event loop of its own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from service import cypher
from service.graph import Graph, Observer
from service.settings import Settings

T = TypeVar("T")


def on_a_graph(
    settings: Settings, work: Callable[[Graph], Awaitable[T]], observer: Observer | None = None
) -> T:
    """What `work` returns (or raises) on a Graph connected for it and closed after it.

    In a worker thread, so that it runs whatever the calling thread does: Playwright's
    sync API, for one, keeps an event loop running in it."""

    async def go() -> T:
        graph = Graph.connect(settings, cypher.load(), settings.neo4j_uri or "", observer)
        try:
            return await work(graph)
        finally:
            await graph.close()

    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, go()).result()
