"""OpenLineage ingestion: events from the real `openlineage-python` client over its
HTTP transport with default settings, the array form, run states, convergence of
duplicated and reordered events, and bad events refused whole."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import httpx
import neo4j
from openlineage.client.client import OpenLineageClient
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, schema_dataset, sql_job
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

from tests.conftest import Tokens
from tests.support.server import LiveServer

PG = "postgres://db:5432"
RAW, STG, MART = f"{PG}/raw.orders", f"{PG}/stg.orders", f"{PG}/mart.revenue"
ORIGIN = "openlineage:airflow/etl.orders"
T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _schema(*names: str) -> schema_dataset.SchemaDatasetFacet:
    return schema_dataset.SchemaDatasetFacet(
        fields=[schema_dataset.SchemaDatasetFacetFields(name=n, type="varchar") for n in names]
    )


def _client_event(state: RunState, run_id: str, at: datetime) -> RunEvent:
    """raw.orders -> stg.orders, with the facets the service reads, as a client builds it."""
    lineage = column_lineage_dataset.ColumnLineageDatasetFacet(
        fields={
            "order_id": column_lineage_dataset.Fields(
                inputFields=[
                    column_lineage_dataset.InputField(
                        namespace=PG,
                        name="raw.orders",
                        field="id",
                        transformations=[
                            column_lineage_dataset.Transformation(type="DIRECT", subtype="IDENTITY")
                        ],
                    )
                ]
            ),
            "amount": column_lineage_dataset.Fields(
                inputFields=[
                    column_lineage_dataset.InputField(
                        namespace=PG, name="raw.orders", field="amount_cents"
                    )
                ],
                transformationDescription="amount_cents / 100",
            ),
        }
    )
    return RunEvent(
        eventType=state,
        eventTime=at.isoformat(),
        run=Run(runId=run_id),
        job=Job(
            namespace="airflow",
            name="etl.orders",
            facets={"sql": sql_job.SQLJobFacet(query="insert into stg.orders select ...")},
        ),
        inputs=[
            InputDataset(
                namespace=PG, name="raw.orders", facets={"schema": _schema("id", "amount_cents")}
            )
        ],
        outputs=[
            OutputDataset(
                namespace=PG,
                name="stg.orders",
                facets={"schema": _schema("order_id", "amount"), "columnLineage": lineage},
            )
        ],
    )


def test_the_openlineage_python_client_over_http_makes_lineage_appear(
    live: LiveServer, tokens: Tokens, reader: httpx.Client, driver: neo4j.Driver
) -> None:
    # Default endpoint (api/v1/lineage) and an API key, as a user would configure it.
    client = OpenLineageClient(
        transport=HttpTransport(
            HttpConfig(url=live.url, auth=ApiKeyTokenProvider({"apiKey": tokens.write}))
        )
    )
    run_id = str(uuid.uuid4())
    client.emit(_client_event(RunState.START, run_id, T0))
    assert reader.get("/lineage/edges").json()["items"] == []
    assert _run(driver, run_id) == "START"

    client.emit(_client_event(RunState.COMPLETE, run_id, T0 + timedelta(minutes=5)))
    assert _run(driver, run_id) == "COMPLETE"
    edges = reader.get("/lineage/edges", params={"origin": ORIGIN}).json()["items"]
    assert [(e["source"], e["target"]) for e in edges] == [(RAW, STG)]
    assert edges[0]["transformation"] == "insert into stg.orders select ..."
    assert {(c["source"], c["target"], c["transformation"]) for c in edges[0]["columns"]} == {
        ("id", "order_id", "DIRECT/IDENTITY"),
        ("amount_cents", "amount", "amount_cents / 100"),
    }
    raw = reader.get("/assets/" + quote(RAW, safe="")).json()
    assert raw["placeholder"] is True
    assert [c["name"] for c in raw["columns"]] == ["id", "amount_cents"]
    assert raw["columns"][0]["type"] == "varchar"
    walk = reader.get(
        f"/lineage/{quote(STG, safe='')}/columns/order_id/upstream", params={"depth": 3}
    ).json()
    assert [(n["asset"], n["column"], n["distance"]) for n in walk["nodes"]] == [
        (STG, "order_id", 0),
        (RAW, "id", 1),
    ]
    client.close()


def _event(
    state: str,
    run_id: str,
    at: datetime,
    inputs: list[str] | None = None,
    outputs: list[dict[str, Any]] | None = None,
    sql: str | None = None,
    job: str = "etl.orders",
) -> dict[str, Any]:
    """A RunEvent as plain JSON (outputs already hold their facets)."""
    event: dict[str, Any] = {
        "eventType": state,
        "eventTime": at.isoformat().replace("+00:00", "Z"),
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": run_id, "facets": {}},
        "job": {"namespace": "airflow", "name": job, "facets": {}},
        "inputs": [{"namespace": PG, "name": name.split("/", 3)[-1]} for name in inputs or []],
        "outputs": outputs or [],
    }
    if sql:
        event["job"]["facets"]["sql"] = {"_producer": "x", "_schemaURL": "y", "query": sql}
    return event


def _output(name: str, columns: list[str], lineage: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """An output dataset with a schema facet and, per output column, one input field."""
    return {
        "namespace": PG,
        "name": name,
        "facets": {
            "schema": {"fields": [{"name": c, "type": "text"} for c in columns]},
            "columnLineage": {
                "fields": {
                    column: {"inputFields": [{"namespace": PG, "name": src, "field": field}]}
                    for column, (src, field) in lineage.items()
                }
            },
        },
    }


def _history() -> list[dict[str, Any]]:
    """Two runs of one job (the second with newer SQL and schema) and a run of another."""
    first, second, other = str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4())
    return [
        _event("START", first, T0, ["raw.orders"]),
        _event(
            "COMPLETE",
            first,
            T0 + timedelta(minutes=1),
            ["raw.orders"],
            [_output("stg.orders", ["order_id"], {"order_id": ("raw.orders", "id")})],
            sql="select id as order_id from raw.orders",
        ),
        _event("START", second, T0 + timedelta(hours=1), ["raw.orders"]),
        _event("RUNNING", second, T0 + timedelta(hours=1, minutes=1), ["raw.orders"]),
        _event(
            "COMPLETE",
            second,
            T0 + timedelta(hours=1, minutes=2),
            ["raw.orders"],
            [
                _output(
                    "stg.orders",
                    ["order_id", "amount"],
                    {"order_id": ("raw.orders", "id"), "amount": ("raw.orders", "cents")},
                )
            ],
            sql="select id as order_id, cents / 100 as amount from raw.orders",
        ),
        _event(
            "COMPLETE",
            other,
            T0 + timedelta(minutes=30),
            ["stg.orders"],
            [_output("mart.revenue", ["total"], {"total": ("stg.orders", "amount")})],
            job="mart.revenue",
        ),
    ]


def _snapshot(driver: neo4j.Driver) -> dict[str, Any]:
    """The graph as a reader sees it, without write times."""
    edges = driver.execute_query(
        "MATCH (s:Asset)-[r:LINEAGE]->(t:Asset) "
        "RETURN s.id AS s, t.id AS t, r.transformation AS x, r.origins AS o ORDER BY s, t"
    ).records
    columns = driver.execute_query(
        "MATCH (a:Column)-[r:COLUMN_LINEAGE]->(b:Column) "
        "RETURN a.key AS a, b.key AS b, r.transformation AS x, r.origins AS o ORDER BY a, b"
    ).records
    assets = driver.execute_query(
        "MATCH (a:Asset) RETURN a.id AS id, a.columns_json AS c, a.placeholder AS p ORDER BY id"
    ).records
    runs = driver.execute_query(
        "MATCH (r:OpenLineageRun) RETURN r.job_name AS j, r.state AS s, r.event_time AS t "
        "ORDER BY t"
    ).records
    return {
        "edges": [dict(r) for r in edges],
        "columns": [dict(r) for r in columns],
        "assets": [dict(r) for r in assets],
        "runs": [dict(r) for r in runs],
    }


def _forget_lineage(driver: neo4j.Driver) -> None:
    driver.execute_query(
        "MATCH (n) WHERE n:Asset OR n:Column OR n:OpenLineageRun OR n:DatasetSchema "
        "OR n:OpenLineageJob DETACH DELETE n"
    )


def test_duplicated_and_reordered_events_converge_to_one_graph(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    history = _history()
    for event in history:
        assert writer.post("/lineage/openlineage", json=event).status_code == 200
    in_order = _snapshot(driver)
    assert [(e["s"], e["t"]) for e in in_order["edges"]] == [(RAW, STG), (STG, MART)]
    assert (
        in_order["edges"][0]["x"] == "select id as order_id, cents / 100 as amount from raw.orders"
    )
    assert '"amount"' in next(a["c"] for a in in_order["assets"] if a["id"] == STG)
    assert [r["s"] for r in in_order["runs"]] == ["COMPLETE", "COMPLETE", "COMPLETE"]

    _forget_lineage(driver)
    shuffled = [history[4], history[5], history[1], history[1], history[3], history[0], history[2]]
    for event in shuffled:
        assert writer.post("/lineage/openlineage", json=event).status_code == 200
    assert _snapshot(driver) == in_order

    _forget_lineage(driver)
    assert writer.post("/lineage/openlineage", json=list(reversed(history))).status_code == 200
    assert _snapshot(driver) == in_order


def test_the_array_form_answers_a_summary_and_announces_it(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    history = _history()
    response = writer.post("/lineage/openlineage", json=history)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "received": 6,
        "complete": 3,
        "runs": 3,
        "edges": {"created": 2, "existing": 0},
        "column_mappings": {"created": 3, "existing": 0},
        "assets": {"created": 3, "updated": 2},
        "warnings": [],
        "retired": {
            "edges": 0,
            "edges_removed": 0,
            "column_mappings": 0,
            "column_mappings_removed": 0,
        },
    }
    events = writer.get("/events", params={"types": "lineage.bulk.ingested"}).json()["items"]
    assert len(events) == 1 and events[0]["data"] == response.json()
    assert len(writer.get("/events", params={"types": "asset.updated"}).json()["items"]) == 2
    again = writer.post("/lineage/openlineage", json=history).json()
    assert again["edges"] == {"created": 0, "existing": 2}
    assert again["assets"] == {"created": 0, "updated": 0}
    assert (
        len(writer.get("/events", params={"types": "lineage.bulk.ingested"}).json()["items"]) == 1
    )


def test_run_states_are_recorded_without_changing_lineage(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    run_id = str(uuid.uuid4())
    outputs = [_output("stg.orders", ["order_id"], {"order_id": ("raw.orders", "id")})]
    events = [
        _event(state, run_id, T0 + timedelta(minutes=i), ["raw.orders"], outputs)
        for i, state in enumerate(("START", "RUNNING", "FAIL"))
    ]
    events.append(_event("ABORT", str(uuid.uuid4()), T0, ["raw.orders"], outputs))
    other = _event("OTHER", str(uuid.uuid4()), T0, ["raw.orders"], outputs)
    del other["eventType"]
    events.append(other)
    response = writer.post("/lineage/openlineage", json=events)
    assert response.status_code == 200, response.text
    assert response.json()["complete"] == 0 and response.json()["runs"] == 3
    assert _run(driver, run_id) == "FAIL"
    assert (
        driver.execute_query("MATCH (n) WHERE n:Asset OR n:Column RETURN count(n)").records[0][0]
        == 0
    )
    assert writer.get("/events", params={"types": "lineage.*"}).json()["items"] == []
    late_start = _event("START", run_id, T0 - timedelta(minutes=5), ["raw.orders"])
    writer.post("/lineage/openlineage", json=late_start)
    assert _run(driver, run_id) == "FAIL"


def test_a_run_event_on_post_lineage_is_recognised(writer: httpx.Client) -> None:
    event = _event(
        "COMPLETE",
        str(uuid.uuid4()),
        T0,
        ["raw.orders"],
        [{"namespace": PG, "name": "stg.orders"}],
        sql="select 1",
    )
    malformed = writer.post("/lineage", json=event, params={"strict": "perhaps"})
    assert malformed.status_code == 422, malformed.text  # as for an edge's body
    assert malformed.json()["errors"][0]["loc"] == ["query", "strict"]
    assert writer.get("/lineage/edges").json()["items"] == []
    response = writer.post("/lineage", json=event)
    assert response.status_code == 200, response.text
    assert response.json()["edges"] == {"created": 1, "existing": 0}
    edge = writer.get("/lineage/edges").json()["items"][0]
    assert (edge["source"], edge["target"], edge["origins"]) == (RAW, STG, [ORIGIN])


def test_a_dataset_read_and_written_by_one_job_makes_no_self_loop(writer: httpx.Client) -> None:
    event = _event(
        "COMPLETE", str(uuid.uuid4()), T0, ["raw.orders"], [{"namespace": PG, "name": "raw.orders"}]
    )
    result = writer.post("/lineage/openlineage", json=event).json()
    assert result["edges"] == {"created": 0, "existing": 0}
    assert "raw.orders" in result["warnings"][0]


def test_bad_events_are_422_naming_the_field_and_write_nothing(
    writer: httpx.Client, reader: httpx.Client, driver: neo4j.Driver
) -> None:
    def good() -> dict[str, Any]:
        return _event(
            "COMPLETE",
            str(uuid.uuid4()),
            T0,
            ["raw.orders"],
            [_output("stg.orders", ["order_id"], {"order_id": ("raw.orders", "id")})],
        )

    def without(key: str) -> dict[str, Any]:
        event = good()
        del event[key]
        return event

    def changed(path: list[Any], value: Any) -> dict[str, Any]:
        event = good()
        target = event
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return event

    cases: list[tuple[Any, list[Any]]] = [
        (without("run"), ["body", "run"]),
        (without("eventTime"), ["body", "eventTime"]),
        (without("producer"), ["body", "producer"]),
        (changed(["eventTime"], 5), ["body", "eventTime"]),
        (changed(["eventTime"], "yesterday"), ["body", "eventTime"]),
        (changed(["eventType"], "DONE"), ["body", "eventType"]),
        (changed(["run", "runId"], "not-a-uuid"), ["body", "run", "runId"]),
        (changed(["run", "runId"], 42), ["body", "run", "runId"]),
        (changed(["job"], {"namespace": "airflow"}), ["body", "job", "name"]),
        (changed(["inputs"], {"namespace": PG}), ["body", "inputs"]),
        (changed(["inputs", 0, "name"], ["x"]), ["body", "inputs", 0, "name"]),
        (
            changed(["job", "facets", "sql"], {"query": 1}),
            ["body", "job", "facets", "sql", "query"],
        ),
        (changed(["job", "facets", "custom"], "text"), ["body", "job", "facets", "custom"]),
        (
            changed(["outputs", 0, "facets", "schema", "fields", 0, "name"], 7),
            ["body", "outputs", 0, "facets", "schema", "fields", 0, "name"],
        ),
        (
            changed(["outputs", 0, "facets", "columnLineage", "fields", "order_id"], {}),
            ["body", "outputs", 0, "facets", "columnLineage", "fields", "order_id", "inputFields"],
        ),
        (changed(["inputs", 0, "name"], "raw orders"), ["body", "inputs", 0, "name"]),
    ]
    before = _everything(driver)
    for path in ("/lineage/openlineage", "/lineage"):
        for body, loc in cases:
            response = writer.post(path, json=body)
            assert response.status_code == 422, (path, loc, response.text)
            problem = response.json()
            assert problem["code"] == "validation_error"
            assert loc in [e["loc"] for e in problem["errors"]], (loc, problem["errors"])
    batch = writer.post("/lineage/openlineage", json=[good(), without("run")])
    assert batch.status_code == 422 and batch.json()["errors"][0]["loc"] == ["body", 1, "run"]
    assert writer.post("/lineage/openlineage", json=[]).status_code == 422
    assert writer.post("/lineage/openlineage", json="event").status_code == 422
    assert _everything(driver) == before
    assert writer.get("/events", params={"types": "lineage.*,asset.*"}).json()["items"] == []
    assert reader.post("/lineage/openlineage", json=good()).status_code == 403


def _everything(driver: neo4j.Driver) -> tuple[int, int]:
    nodes = driver.execute_query("MATCH (n) RETURN count(n)").records[0][0]
    relationships = driver.execute_query("MATCH ()-[r]->() RETURN count(r)").records[0][0]
    return int(nodes), int(relationships)


def _run(driver: neo4j.Driver, run_id: str) -> str | None:
    records = driver.execute_query(
        "MATCH (r:OpenLineageRun {run_id: $id}) RETURN r.state AS state", id=run_id
    ).records
    return records[0]["state"] if records else None
