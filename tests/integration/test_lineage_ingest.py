"""Bulk lineage ingestion at its limits: its own transaction timeout (503 with
Retry-After and nothing written when it runs out) and concurrent writers whose
bulks share assets, who all succeed and leave exactly the union of their edges."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import neo4j
import pytest

from service.app import create_app
from service.settings import Limits, Settings
from tests.conftest import Tokens, client_for
from tests.support.server import LiveServer

HELD = "zz.held"
QUERY_TIMEOUT_S = 60.0


@pytest.fixture
def hasty(make_settings: Callable[..., Settings], clean: None) -> Iterator[LiveServer]:
    """Ingestion may take 1 s, any other transaction a minute: a bulk that is stopped
    quickly was stopped by the ingestion timeout."""
    limits = Limits(query_timeout_s=QUERY_TIMEOUT_S, ingest_timeout_s=1.0)
    server = LiveServer(create_app(make_settings(limits=limits))).start()
    yield server
    server.stop()


def _count(driver: neo4j.Driver, query: str) -> int:
    return int(driver.execute_query(query).records[0][0])


def test_a_bulk_past_the_ingest_timeout_is_503_with_retry_after_and_writes_nothing(
    hasty: LiveServer, tokens: Tokens, driver: neo4j.Driver
) -> None:
    # Sorted, the edge into the held asset comes last: the others are merged first,
    # then the bulk waits on the lock until its timeout stops it.
    edges = [{"source": f"t.{i:03d}", "target": f"u.{i:03d}"} for i in range(200)]
    edges.append({"source": "u.000", "target": HELD})
    with client_for(hasty, tokens.write) as api:
        created = api.post("/assets", json={"id": HELD, "name": "held", "type": "table"})
        assert created.status_code == 201, created.text
        with driver.session() as session, session.begin_transaction() as holder:
            holder.run("MATCH (a:Asset {id: $id}) SET a.held = true", id=HELD).consume()
            started = time.monotonic()
            answer = api.post("/lineage/bulk", json=edges)
            elapsed = time.monotonic() - started
            holder.rollback()
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "neo4j_busy"
        assert int(answer.headers["retry-after"]) >= 1
        assert elapsed < QUERY_TIMEOUT_S / 2
        events = api.get("/events", params={"types": "lineage.*"}).json()["items"]
        assert events == []
    assert _count(driver, "MATCH ()-[r:LINEAGE]->() RETURN count(r)") == 0
    assert _count(driver, "MATCH (a:Asset) RETURN count(a)") == 1


def _bulks(writers: int, per_writer: int, shared_ids: int, seed: int) -> list[list[dict[str, str]]]:
    """Edges among one small pool of assets, so that writers lock the same nodes in
    different orders; about half of each writer's edges are also another's."""
    rng = random.Random(seed)
    ids = [f"pool.{i:04d}" for i in range(shared_ids)]
    common: set[tuple[str, str]] = set()
    while len(common) < per_writer * writers // 2:
        source, target = rng.sample(ids, 2)
        common.add((source, target))
    ordered = sorted(common)
    bulks = []
    for _ in range(writers):
        own = set(rng.sample(ordered, per_writer // 2))
        while len(own) < per_writer:
            source, target = rng.sample(ids, 2)
            own.add((source, target))
        bulks.append([{"source": s, "target": t} for s, t in sorted(own)])
    return bulks


def test_concurrent_bulks_sharing_assets_all_succeed_and_leave_the_union(
    live: LiveServer, tokens: Tokens, driver: neo4j.Driver
) -> None:
    bulks = _bulks(writers=4, per_writer=1_500, shared_ids=400, seed=11)
    union = {(e["source"], e["target"]) for bulk in bulks for e in bulk}
    ids = {i for pair in union for i in pair}

    def send(bulk: list[dict[str, str]]) -> httpx.Response:
        with client_for(live, tokens.write) as api:
            api.timeout = httpx.Timeout(120)
            return api.post("/lineage/bulk", json=bulk)

    def all_at_once(bulks: list[list[dict[str, str]]]) -> list[dict[str, int]]:
        with ThreadPoolExecutor(max_workers=len(bulks)) as pool:
            answers = list(pool.map(send, bulks))
        assert [a.status_code for a in answers] == [200] * len(bulks), [
            a.text for a in answers if a.status_code != 200
        ]
        summaries = [a.json() for a in answers]
        assert [s["received"] for s in summaries] == [len(b) for b in bulks]
        assert [s["created"] + s["existing"] for s in summaries] == [len(b) for b in bulks]
        return summaries

    first = all_at_once(bulks)
    # Each edge and each asset is counted as created by exactly one writer.
    assert sum(s["created"] for s in first) == len(union)
    assert sum(s["assets_created"] for s in first) == len(ids)
    # Again, each writer now naming its own transformation on the shared edges.
    named = [[dict(e, transformation=f"w{k}") for e in bulk] for k, bulk in enumerate(bulks)]
    again = all_at_once(named)
    assert [(s["created"], s["assets_created"]) for s in again] == [(0, 0)] * len(bulks)

    rows = driver.execute_query(
        "MATCH (s:Asset)-[r:LINEAGE]->(t:Asset) "
        "RETURN s.id AS s, t.id AS t, r.origins AS o, r.transformation AS x"
    ).records
    assert sorted((r["s"], r["t"]) for r in rows) == sorted(union)
    assert {tuple(r["o"]) for r in rows} == {("api",)}
    writers_of: dict[tuple[str, str], set[str]] = {pair: set() for pair in union}
    for k, bulk in enumerate(bulks):
        for e in bulk:
            writers_of[(e["source"], e["target"])].add(f"w{k}")
    assert all(r["x"] in writers_of[(r["s"], r["t"])] for r in rows)
    assert _count(driver, "MATCH (a:Asset) RETURN count(a)") == len(ids)
    with client_for(live, tokens.read) as api:
        events = api.get("/events", params={"types": "lineage.*", "limit": 50}).json()["items"]
    ingested = [e["data"] for e in events if e["type"] == "lineage.bulk.ingested"]
    # Every writer changed transformations the second time; the first time, those
    # that created something said so, and between them they announced every edge.
    assert len(bulks) + 1 <= len(ingested) <= 2 * len(bulks)
    assert sum(data["created"] for data in ingested) == len(union)


def test_an_openlineage_request_past_the_ingest_timeout_is_503_and_writes_nothing(
    hasty: LiveServer, tokens: Tokens, driver: neo4j.Driver
) -> None:
    held = "pg/" + HELD
    event = {
        "eventType": "COMPLETE",
        "eventTime": "2026-01-01T00:00:00Z",
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": "0190a1a2-0000-7000-8000-000000000001", "facets": {}},
        "job": {"namespace": "airflow", "name": "etl.held", "facets": {}},
        "inputs": [{"namespace": "pg", "name": f"t.{i:03d}"} for i in range(50)],
        "outputs": [{"namespace": "pg", "name": HELD}],
    }
    with client_for(hasty, tokens.write) as api:
        created = api.post("/assets", json={"id": held, "name": "held", "type": "table"})
        assert created.status_code == 201, created.text
        with driver.session() as session, session.begin_transaction() as holder:
            holder.run("MATCH (a:Asset {id: $id}) SET a.held = true", id=held).consume()
            answer = api.post("/lineage/openlineage", json=event)
            holder.rollback()
        assert answer.status_code == 503, answer.text
        assert int(answer.headers["retry-after"]) >= 1
        assert api.get("/events", params={"types": "lineage.*"}).json()["items"] == []
    assert _count(driver, "MATCH ()-[r:LINEAGE]->() RETURN count(r)") == 0
    assert _count(driver, "MATCH (n) WHERE n:Asset OR n:OpenLineageRun RETURN count(n)") == 1
