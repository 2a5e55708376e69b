"""The service's schema, applied to the test database when the session starts.

On a database just created (each pytest-xdist worker's own instance, on a fresh
clone), the constraints and indexes are built by whichever service starts first, on
a Neo4j that has only just started. Done here, once per session, that is part of
provisioning the database; every test server then finds the schema in place
(each statement is `IF NOT EXISTS`) and starts as quickly as on any later run.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from service import cypher
from service.graph import Graph
from service.settings import Settings


def apply_schema(settings: Settings) -> None:
    async def apply() -> None:
        graph = Graph.connect(settings, cypher.load(), settings.neo4j_uri or "")
        try:
            await graph.apply_schema()
        finally:
            await graph.close()

    # In a worker thread: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as worker:
        worker.submit(asyncio.run, apply()).result()
