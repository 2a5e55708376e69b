"""Two dispatchers at once, around a lease hand-over, on real Neo4j: the lease and the
claim each decide on what they read *after* taking the lock, so the one that waited
for the other's commit sees it.

Each test makes the race happen every time rather than by chance: the first
transaction writes and stays open; the second runs until Neo4j reports it blocked on
the first's lock (`SHOW TRANSACTIONS`); then the first commits and the second's answer
is checked. A statement that decided on what it read before the lock (read committed)
answers as if the first had never run: two holders of one lease, or one delivery
claimed by both (and sent twice).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import neo4j
import pytest

from service import cypher
from tests.support.waiting import eventually

NOW = "2030-01-01T00:00:00.000Z"
EXPIRED = "2029-12-31T23:59:00.000Z"
LATER = "2030-01-01T00:01:00.000Z"
LEASE = "race-lease"


def _statement(name: str) -> str:
    return cypher.load()[name].statement()


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as executor:
        yield executor


def _blocked(driver: neo4j.Driver) -> bool:
    records = driver.execute_query(
        "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n"
    ).records
    return int(records[0]["n"]) > 0


def _race(
    driver: neo4j.Driver,
    pool: ThreadPoolExecutor,
    name: str,
    first: dict[str, Any],
    second: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run `name` with `first` in an open transaction, then with `second` until it waits
    on the first's lock; commit the first; both answers."""
    statement = _statement(name)
    with driver.session() as session:
        tx = session.begin_transaction()
        try:
            answered_first = [r.data() for r in tx.run(statement, first)]
            waiting: Future[list[dict[str, Any]]] = pool.submit(
                _in_own_transaction(driver, statement, second)
            )
            eventually(lambda: _blocked(driver), timeout=30, what="the second transaction waits")
            tx.commit()
        finally:
            if tx.closed() is False:
                tx.rollback()
    return answered_first, waiting.result(timeout=60)


def _in_own_transaction(
    driver: neo4j.Driver, statement: str, params: dict[str, Any]
) -> Callable[[], list[dict[str, Any]]]:
    def run() -> list[dict[str, Any]]:
        with driver.session() as session:
            return session.execute_write(lambda tx: [r.data() for r in tx.run(statement, params)])

    return run


def _lease(holder: str) -> dict[str, Any]:
    return {"name": LEASE, "holder": holder, "now": NOW, "expires_at": LATER}


@pytest.mark.usefixtures("clean")
def test_an_expired_lease_renewed_and_taken_over_at_once_has_one_holder(
    driver: neo4j.Driver, pool: ThreadPoolExecutor
) -> None:
    """The holder renews late, just as another process sees the lease expired."""
    # Leases outlive the graph's clearing between tests.
    driver.execute_query("MATCH (old:Lease {name: $name}) DETACH DELETE old", name=LEASE)
    driver.execute_query(
        "CREATE (:Lease {name: $name, holder: 'proc_a', expires_at: $expired})",
        name=LEASE,
        expired=EXPIRED,
    )
    renewed, taken = _race(driver, pool, "leases.take", _lease("proc_a"), _lease("proc_b"))
    assert renewed == [{"holder": "proc_a"}]
    assert taken == []  # proc_b sees proc_a's renewal: it does not hold the lease
    held = driver.execute_query("MATCH (l:Lease {name: $name}) RETURN l.holder AS h", name=LEASE)
    assert [r["h"] for r in held.records] == ["proc_a"]


def _claim(holder: str) -> dict[str, Any]:
    return {
        "now": NOW,
        "claim_until": LATER,
        "holder": holder,
        "room": {},
        "max_per_webhook": 10,
        "after": "",
        "limit": 100,
    }


@pytest.mark.usefixtures("clean")
def test_two_dispatchers_claiming_at_once_never_claim_one_delivery_twice(
    driver: neo4j.Driver, pool: ThreadPoolExecutor
) -> None:
    driver.execute_query(
        """
        CREATE (:Webhook {id: 'hook', url: 'http://127.0.0.1:9/hook', types: ['*'],
                          enabled: false, secret: 'x', created_at: $expired})
        WITH 1 AS one
        UNWIND range(1, 5) AS i
        CREATE (:Delivery {id: 'd' + i, key: 'd' + i, webhook_id: 'hook', state: 'pending',
                           next_attempt_at: $expired, attempts: 0, payload: '{}',
                           event_id: 'e' + i, event_type: 'asset.created', created_at: $expired})
        """,
        expired=EXPIRED,
    )
    first, second = _race(driver, pool, "webhooks.claim_due", _claim("proc_a"), _claim("proc_b"))
    assert sorted(r["delivery"]["id"] for r in first) == ["d1", "d2", "d3", "d4", "d5"]
    assert second == []  # every one is proc_a's now: none goes out twice
    holders = driver.execute_query("MATCH (d:Delivery) RETURN DISTINCT d.claimed_by AS h")
    assert [r["h"] for r in holders.records] == ["proc_a"]
