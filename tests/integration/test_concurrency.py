"""Concurrent writers: exactly one create wins; placeholder claims are exclusive too."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import httpx
import neo4j


def _race(client: httpx.Client, n: int, body: dict[str, Any]) -> list[int]:
    def post(i: int) -> int:
        return client.post("/assets", json={**body, "name": f"writer {i}"}).status_code

    with concurrent.futures.ThreadPoolExecutor(n) as pool:
        return list(pool.map(post, range(n)))


def test_a_concurrent_double_create_has_exactly_one_winner(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    for round_ in range(5):
        statuses = _race(writer, 8, {"id": f"race-{round_}", "type": "table"})
        assert sorted(statuses) == [201] + [409] * 7, statuses
    count = driver.execute_query("MATCH (a:Asset) RETURN count(a) AS n").records[0]["n"]
    assert count == 5


def test_a_placeholder_is_claimed_by_exactly_one_create(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    driver.execute_query(
        "CREATE (:Asset {id: 'ph', name: 'ph', type: 'unknown', placeholder: true, version: 1,"
        " created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z'})"
        "-[:LINEAGE]->(:Asset {id: 'down', name: 'down', type: 'table', placeholder: false, version: 1,"
        " created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z'})"
    )
    statuses = _race(writer, 8, {"id": "ph", "type": "table"})
    assert sorted(statuses) == [201] + [409] * 7
    claimed = writer.get("/assets/ph").json()
    assert (
        claimed["placeholder"] is False and claimed["type"] == "table" and claimed["version"] == 2
    )
    assert claimed["created_at"] == "2026-01-01T00:00:00.000Z"
    edges = driver.execute_query(
        "MATCH (:Asset {id: 'ph'})-[r]->(:Asset {id: 'down'}) RETURN count(r) AS n"
    )
    assert edges.records[0]["n"] == 1
