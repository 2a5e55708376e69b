"""How far the service's background workers have got, read from Neo4j, so a test
can wait until they have caught up instead of sleeping for a while.

The webhook dispatcher and the policy evaluator each keep a cursor into the event
log on their lease; a worker whose cursor has reached the newest event has acted
on everything written so far.
"""

from __future__ import annotations

import neo4j

POLICY_EVALUATOR = "policy-evaluator"
WEBHOOK_DISPATCHER = "webhook-dispatcher"

_PROGRESS = """
OPTIONAL MATCH (e:Event)
WITH max(e.seq) AS newest
OPTIONAL MATCH (l:Lease {name: $lease})
RETURN coalesce(newest, 0) AS newest, coalesce(l.cursor, -1) AS cursor
"""


def caught_up(driver: neo4j.Driver, lease: str) -> bool:
    """Whether the holder of `lease` has acted on every event in the log."""
    record = driver.execute_query(_PROGRESS, lease=lease).records[0]
    return int(record["cursor"]) >= int(record["newest"])


def newest_event(driver: neo4j.Driver) -> int:
    """The sequence number of the newest event in the log (0 when it is empty)."""
    return int(driver.execute_query(_PROGRESS, lease="").records[0]["newest"])
