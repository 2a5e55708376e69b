"""Waiting for what a test service does in the background when it starts."""

from __future__ import annotations

import neo4j

from tests.support.waiting import eventually

# The last backfill a start runs (`service/lifespan.py`, `_backfills`): once it is
# marked done, the start's backfills are over.
LAST_BACKFILL = "column_flow_findings"


def await_start_up_backfills(driver: neo4j.Driver) -> None:
    """Until the test service's own start-up backfills are over: they would otherwise
    race a test's."""

    def over() -> bool:
        found = driver.execute_query(
            "MATCH (m:Migration {name: $name}) RETURN m", name=LAST_BACKFILL
        )
        return bool(found.records)

    eventually(over, timeout=60, what="the start-up backfills to finish")
