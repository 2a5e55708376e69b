"""POST /query/cypher: an administrator's read-only Cypher. Every kind of
write, file or network access, system command and non-allowlisted procedure is
refused before it runs, a runaway query is stopped, and the graph is unchanged."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import neo4j
import pytest

from service.app import create_app
from service.settings import Limits, Settings
from tests.conftest import Tokens, client_for
from tests.support.server import LiveServer

EDGES = [("raw.orders", "stg.orders"), ("stg.orders", "fct.orders"), ("fct.orders", "dash")]
SLOW = "UNWIND range(1, 10000000000) AS i WITH i WHERE i < 0 RETURN count(i) AS n"


@pytest.fixture
def graph(admin: httpx.Client) -> None:
    response = admin.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in EDGES])
    assert response.status_code == 200, response.text
    put = admin.put("/assets/fct.orders", json={"name": "orders", "type": "table", "tags": ["pii"]})
    assert put.status_code == 201, put.text


def _cypher(client: httpx.Client, query: str, **extra: Any) -> httpx.Response:
    return client.post("/query/cypher", json={"query": query, **extra})


def _snapshot(driver: neo4j.Driver) -> tuple[Any, ...]:
    """Everything a refused query could have touched, but the service's own bookkeeping
    that moves in the background (a token's last use, leases, the event counter) and the
    audit trail (a query that ran is recorded)."""
    nodes = driver.execute_query(
        "MATCH (n) WHERE none(l IN labels(n) WHERE l IN $skip) "
        "AND NOT coalesce(n.type, '') STARTS WITH 'audit.' "
        "RETURN labels(n) AS l, properties(n) AS p",
        skip=["ApiToken", "Lease", "EventCounter"],
    ).records
    rels = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, properties(r) AS p, b.id AS b"
    ).records
    return (
        driver.execute_query(
            "MATCH (n) WHERE NOT coalesce(n.type, '') STARTS WITH 'audit.' RETURN count(n) AS n"
        ).records[0]["n"],
        sorted(repr((r["l"], sorted(r["p"].items()))) for r in nodes),
        sorted(repr((r["a"], r["t"], sorted(r["p"].items()), r["b"])) for r in rels),
    )


def test_a_read_answers_columns_and_json_rows(graph: None, admin: httpx.Client) -> None:
    response = _cypher(
        admin,
        "MATCH p = (a:Asset {id: $id})-[r:LINEAGE]->(b) "
        "RETURN a.id AS id, a, r, p, a.tags AS tags, date('2024-02-29') AS day, "
        "point({x: 1, y: 2}) AS at, 0.0 / 0.0 AS nan",
        parameters={"id": "fct.orders"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["columns"] == ["id", "a", "r", "p", "tags", "day", "at", "nan"]
    assert body["truncated"] is False and len(body["rows"]) == 1
    row = dict(zip(body["columns"], body["rows"][0], strict=True))
    assert row["id"] == "fct.orders" and row["tags"] == ["pii"] and row["nan"] is None
    assert row["a"]["labels"] == ["Asset"] and row["a"]["properties"]["name"] == "orders"
    assert row["r"]["type"] == "LINEAGE" and row["r"]["start"] == row["a"]["element_id"]
    assert [n["properties"]["id"] for n in row["p"]["nodes"]] == ["fct.orders", "dash"]
    assert row["p"]["relationships"][0]["element_id"] == row["r"]["element_id"]
    assert row["day"] == "2024-02-29"
    assert row["at"] == {"srid": 7203, "coordinates": [1.0, 2.0]}


def test_schema_introspection_procedures_are_allowed(graph: None, admin: httpx.Client) -> None:
    labels = _cypher(admin, "CALL db.labels() YIELD label RETURN label ORDER BY label")
    assert labels.status_code == 200, labels.text
    assert ["Asset"] in labels.json()["rows"]
    for query in (
        "CALL db.relationshipTypes()",
        "CALL db.propertyKeys()",
        "CALL db.schema.visualization()",
        "CALL db.schema.nodeTypeProperties()",
    ):
        assert _cypher(admin, query).status_code == 200, query


def test_a_huge_range_is_cut_at_the_row_cap(admin: httpx.Client) -> None:
    """Rows past the cap are never computed: a trillion would meet the query deadline
    and answer 422 `query_timeout`, not 200."""
    response = _cypher(admin, "UNWIND range(1, 1000000000000) AS i RETURN i", limit=10)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "columns": ["i"],
        "rows": [[i] for i in range(1, 11)],
        "truncated": True,
    }
    default = _cypher(admin, "UNWIND range(1, 1000000000000) AS i RETURN i").json()
    assert len(default["rows"]) == 1_000 and default["truncated"] is True
    exact = _cypher(admin, "UNWIND range(1, 10) AS i RETURN i", limit=10).json()
    assert exact["truncated"] is False


FORBIDDEN = [
    "CREATE (:Probe {at: 1})",
    "CREATE (a:Asset {id: 'new'}) RETURN a",
    "MERGE (a:Asset {id: 'fct.orders'}) ON MATCH SET a.name = 'x'",
    "MERGE (:Probe)",
    "MATCH (a:Asset) SET a.name = 'changed'",
    "MATCH (a:Asset) SET a:Probe",
    "MATCH (a:Asset) REMOVE a.name",
    "MATCH (a:Asset) REMOVE a:Asset",
    "MATCH (a:Asset) DETACH DELETE a",
    "MATCH ()-[r:LINEAGE]->() DELETE r",
    "MATCH (a:Asset) FOREACH (x IN [1] | SET a.x = x)",
    "MATCH (a:Asset), (b:Asset) CREATE (a)-[:LINEAGE]->(b)",
    "CALL { CREATE (:Probe) } IN TRANSACTIONS",
    "UNWIND [1] AS i CALL (i) { MATCH (a:Asset) DETACH DELETE a } IN TRANSACTIONS",
    "UNWIND [1] AS i CALL (i) { MATCH (a:Asset) RETURN a } IN TRANSACTIONS RETURN a",
    "CALL () { MATCH (a:Asset) DETACH DELETE a }",
    "CALL db.createLabel('Probe')",
    "CALL db.createProperty('probe')",
    "CALL db.createRelationshipType('PROBE')",
    "CREATE INDEX probe IF NOT EXISTS FOR (n:Probe) ON (n.x)",
    "CREATE CONSTRAINT probe IF NOT EXISTS FOR (n:Probe) REQUIRE n.x IS UNIQUE",
    "DROP INDEX probe IF EXISTS",
    "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
    "LOAD CSV WITH HEADERS FROM 'http://127.0.0.1:9/data.csv' AS row RETURN row",
    "LOAD CSV FROM 'https://example.com/x.csv' AS row CREATE (:Probe {row: row})",
    "SHOW DATABASES",
    "SHOW USERS",
    "SHOW INDEXES",
    "SHOW PROCEDURES",
    "SHOW SETTINGS",
    "SHOW TRANSACTIONS",
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
    "CALL dbms.components()",
    "CALL dbms.listConfig()",
    "CALL dbms.showCurrentUser()",
    "CALL db.awaitIndexes(5)",
    "CALL db.clearQueryCaches()",
    "CALL db.info()",
    "CALL tx.setMetaData({who: 'me'})",
    "EXPLAIN USE system SHOW USERS",
    "PROFILE USE system SHOW USERS",
    "USE system SHOW USERS",
    "EXPLAIN CREATE (:Probe)",
]
INVALID = [
    "USE system SHOW DATABASES",
    "USE system MATCH (n) RETURN n",
    "USE system RETURN 1",
    "CALL { USE system RETURN 1 AS x } RETURN x",
    "CREATE DATABASE probe",
    "CALL dbms.security.createUser('probe', 'secret-password', false)",
    "MATCH (n RETURN n",
    "RETURN 1 / 0",
]


@pytest.mark.parametrize("query", FORBIDDEN)
def test_writes_files_system_commands_and_procedures_are_forbidden(
    graph: None, admin: httpx.Client, driver: neo4j.Driver, query: str
) -> None:
    before = _snapshot(driver)
    response = _cypher(admin, query)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "forbidden_query", problem
    assert problem["errors"][0]["loc"] == ["body", "query"]
    assert _snapshot(driver) == before


@pytest.mark.parametrize("query", INVALID)
def test_what_neo4j_cannot_compile_or_run_here_is_refused(
    graph: None, admin: httpx.Client, driver: neo4j.Driver, query: str
) -> None:
    before = _snapshot(driver)
    response = _cypher(admin, query)
    assert response.status_code == 422, response.text
    assert response.json()["code"] in ("invalid_query", "forbidden_query")
    assert _snapshot(driver) == before


def test_a_malformed_body_is_422_at_the_field(admin: httpx.Client) -> None:
    for body, loc in (
        ({}, ["body", "query"]),
        ({"query": ""}, ["body", "query"]),
        ({"query": "RETURN 1", "limit": 0}, ["body", "limit"]),
        ({"query": "RETURN 1", "limit": 10_001}, ["body", "limit"]),
        ({"query": "RETURN 1", "parameters": []}, ["body", "parameters"]),
        ({"query": "RETURN 1", "params": {}}, ["body", "params"]),
    ):
        response = admin.post("/query/cypher", json=body)
        assert response.status_code == 422, body
        assert response.json()["errors"][0]["loc"] == loc


@pytest.fixture(scope="module")
def impatient(make_settings: Callable[..., Settings]) -> Iterator[LiveServer]:
    """A service whose queries may run for half a second."""
    settings = make_settings(limits=Limits(query_timeout_s=0.5))
    server = LiveServer(create_app(settings)).start()
    yield server
    server.stop()


def test_a_query_past_the_timeout_is_stopped(
    impatient: LiveServer, tokens: Tokens, driver: neo4j.Driver
) -> None:
    before = _snapshot(driver)
    with client_for(impatient, tokens.admin) as client:
        started = time.monotonic()
        response = _cypher(client, SLOW)
        elapsed = time.monotonic() - started
        assert response.status_code == 422, response.text
        problem = response.json()
        assert problem["code"] == "query_timeout" and "0.5 s" in problem["detail"]
        assert elapsed < 5
        slow_write = "UNWIND range(1, 10000000000) AS i CREATE (:Probe {i: i})"
        assert _cypher(client, slow_write).json()["code"] == "forbidden_query"
        assert _cypher(client, "RETURN 1 AS one").json()["rows"] == [[1]], "the service recovers"
    assert _snapshot(driver) == before


def test_a_compiled_query_past_the_timeout_is_stopped_too(
    impatient: LiveServer, tokens: Tokens, driver: neo4j.Driver
) -> None:
    """Every asset of a dense 1,000-asset lattice walking 50 hops both ways. The lattice
    is written straight to the graph: what is tested is the query's timeout, and 19,600
    edges through the bulk API (their history, events and summaries) took 20 s."""
    width, levels = 20, 50
    pairs = [
        {"source": f"n{i}.{a}", "target": f"n{i + 1}.{b}"}
        for i in range(levels - 1)
        for a in range(width)
        for b in range(width)
    ]
    driver.execute_query(
        "UNWIND $pairs AS pair MERGE (s:Asset {id: pair.source}) "
        "MERGE (t:Asset {id: pair.target}) MERGE (s)-[:LINEAGE]->(t)",
        pairs=pairs,
    )
    body = {"start": {"where": {}}, "traverse": {"max_depth": 50}, "return": "count"}
    with client_for(impatient, tokens.admin) as client:
        started = time.monotonic()
        response = client.post("/query", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "query_timeout"
        assert time.monotonic() - started < 5


def test_a_query_that_fails_inside_neo4j_is_refused_not_500(admin: httpx.Client) -> None:
    """A string doubled forty times outgrows what Neo4j can hold: its own failure (out of
    memory, or ExecutionFailed on a larger heap) is the query's, answered 422."""
    response = _cypher(admin, "RETURN size(reduce(s = 'ab', i IN range(1, 40) | s + s))")
    assert response.status_code == 422, response.text
    assert response.json()["code"] in ("query_too_large", "query_failed")


def test_a_query_asking_for_its_own_plan_is_judged_on_that_plan(admin: httpx.Client) -> None:
    response = _cypher(admin, "EXPLAIN MATCH (a:Asset) RETURN a")
    assert response.status_code == 200, response.text
    assert response.json()["rows"] == []
