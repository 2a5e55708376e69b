"""The dispatcher's claim (`cypher/webhooks/claim_due.cypher`) on real Neo4j: due
deliveries are taken in turns across webhooks, oldest first within each, never more
than a webhook has room for, so one webhook's backlog cannot crowd out the others."""

from __future__ import annotations

from typing import Any

import neo4j
import pytest

from service import cypher

NOW = "2030-01-01T00:00:00.000Z"
LATER = "2030-01-01T00:01:00.000Z"
HOLDER = "proc_claims"


def _at(second: int) -> str:
    return f"2029-12-31T23:59:{second:02d}.000Z"


@pytest.fixture
def backlog(clean: None, driver: neo4j.Driver) -> None:
    """Webhooks a, b, c: a owes four due deliveries, b two, c one (besides one another
    dispatcher holds, one not due yet and one delivered)."""
    due = [("a", 1), ("a", 2), ("a", 3), ("a", 4), ("b", 5), ("b", 6), ("c", 7)]
    deliveries: list[dict[str, Any]] = [
        {"id": f"{hook}{second}", "hook": hook, "state": "pending", "at": _at(second)}
        for hook, second in due
    ]
    deliveries += [
        {"id": "c-held", "hook": "c", "state": "pending", "at": _at(0), "held": LATER},
        {"id": "c-later", "hook": "c", "state": "pending", "at": LATER},
        {"id": "c-done", "hook": "c", "state": "delivered", "at": _at(0)},
    ]
    driver.execute_query(
        """
        UNWIND ['a', 'b', 'c'] AS hook
        CREATE (:Webhook {id: hook, url: 'http://127.0.0.1:9/hook', types: ['*'],
                          enabled: false, secret: 'x', created_at: $now})
        WITH count(*) AS made
        UNWIND $deliveries AS d
        CREATE (:Delivery {id: d.id, key: d.id, webhook_id: d.hook, state: d.state,
                           next_attempt_at: d.at, claimed_until: d.held, attempts: 0,
                           payload: '{}', event_id: d.id, event_type: 'asset.created',
                           created_at: $now})
        """,
        deliveries=deliveries,
        now=NOW,
    )


def _claim(driver: neo4j.Driver, **overrides: Any) -> list[str]:
    params = {
        "now": NOW,
        "claim_until": LATER,
        "holder": HOLDER,
        "room": {},
        "max_per_webhook": 3,
        "after": "",
        "limit": 100,
        **overrides,
    }
    query = cypher.load()["webhooks.claim_due"]
    records = driver.execute_query(query.statement(), params).records
    return [str(r["delivery"]["id"]) for r in records]


def _held(driver: neo4j.Driver) -> set[str]:
    records = driver.execute_query(
        "MATCH (d:Delivery {claimed_by: $holder}) RETURN d.id AS id", holder=HOLDER
    ).records
    return {str(r["id"]) for r in records}


@pytest.mark.usefixtures("backlog")
def test_each_webhook_gives_its_oldest_in_turns_up_to_the_limit_per_webhook(
    driver: neo4j.Driver,
) -> None:
    assert _claim(driver) == ["a1", "b5", "c7", "a2", "b6", "a3"]
    assert _held(driver) == {"a1", "a2", "a3", "b5", "b6", "c7"}


@pytest.mark.usefixtures("backlog")
def test_a_webhook_gives_no_more_than_its_room(driver: neo4j.Driver) -> None:
    assert _claim(driver, room={"a": 0, "b": 1}) == ["b5", "c7"]


@pytest.mark.usefixtures("backlog")
def test_a_full_claim_stops_in_turn_and_the_next_starts_after_the_last_webhook(
    driver: neo4j.Driver,
) -> None:
    assert _claim(driver, limit=2) == ["a1", "b5"]
    assert _claim(driver, limit=2, after="b") == ["c7", "a2"]


@pytest.mark.usefixtures("backlog")
def test_deliveries_held_by_another_claim_are_left_until_it_expires(
    driver: neo4j.Driver,
) -> None:
    only_c = {"a": 0, "b": 0}
    assert _claim(driver, room=only_c) == ["c7"]
    expired = "2030-01-01T00:01:00.001Z"  # both claims ran until LATER
    assert _claim(driver, room=only_c, now=expired) == ["c-held", "c7", "c-later"]
