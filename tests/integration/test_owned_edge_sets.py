"""Edge sets owned by their writers: a bulk request with `?origin=&replace=true` and an
OpenLineage job's COMPLETE run replace what that writer asserted before; an edge
leaves the graph only when no origin asserts it any more, and says so in an event."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import neo4j
import pytest
from openlineage.client.client import OpenLineageClient
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, sql_job
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

from tests.conftest import Tokens
from tests.support.server import LiveServer

SYNC = {"origin": "sync:crm", "replace": "true"}
PG = "postgres://db:5432"
RAW, OLD, STG = f"{PG}/raw.orders", f"{PG}/old.orders", f"{PG}/stg.orders"
JOB = "openlineage:airflow/etl.orders"
T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _edges(client: httpx.Client, **filters: str) -> dict[tuple[str, str], dict[str, Any]]:
    items = client.get("/lineage/edges", params=filters).json()["items"]
    return {(e["source"], e["target"]): e for e in items}


def _events(client: httpx.Client, types: str) -> list[dict[str, Any]]:
    return list(client.get("/events", params={"types": types, "limit": 100}).json()["items"])


def _columns(driver: neo4j.Driver) -> int:
    return int(driver.execute_query("MATCH (c:Column) RETURN count(c)").records[0][0])


def _bulk(client: httpx.Client, edges: list[dict[str, Any]], **params: str) -> dict[str, Any]:
    answer = client.post("/lineage/bulk", json=edges, params=params)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_replace_withdraws_only_that_origins_edges(writer: httpx.Client) -> None:
    _bulk(writer, [{"source": "a", "target": "b"}, {"source": "c", "target": "d"}], **SYNC)
    _bulk(writer, [{"source": "c", "target": "d"}], origin="sync:erp")
    assert writer.post("/lineage", json={"source": "e", "target": "f"}).status_code == 201
    before = _edges(writer)

    answer = _bulk(writer, [{"source": "x", "target": "y"}], **SYNC)

    assert answer == {
        "received": 1,
        "created": 1,
        "existing": 0,
        "assets_created": 2,
        "retired": {
            "edges": 2,
            "edges_removed": 1,
            "column_mappings": 0,
            "column_mappings_removed": 0,
        },
    }
    after = _edges(writer)
    assert sorted(after) == [("c", "d"), ("e", "f"), ("x", "y")]
    assert after["c", "d"]["origins"] == ["sync:erp"]  # another origin still asserts it
    assert after["c", "d"]["updated_at"] > before["c", "d"]["updated_at"]
    assert after["e", "f"] == before["e", "f"]  # `api`'s edges are nobody's set
    assert after["x", "y"]["origins"] == ["sync:crm"]
    deleted = _events(writer, "lineage.edge.deleted")
    assert [(e["data"]["source"], e["data"]["target"], e["data"]["origins"]) for e in deleted] == [
        ("a", "b", ["sync:crm"])
    ]
    summary = _events(writer, "lineage.bulk.ingested")[-1]
    assert summary["data"] == answer and summary["seq"] > deleted[0]["seq"]
    assert writer.get("/assets/a").json()["placeholder"] is True  # assets stay


def test_a_replace_withdraws_that_origins_column_mappings(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    mapped = {
        "source": "raw",
        "target": "stg",
        "columns": [{"source": "id", "target": "id"}, {"source": "cents", "target": "amount"}],
    }
    _bulk(writer, [mapped], **SYNC)
    _bulk(writer, [{**mapped, "columns": mapped["columns"][:1]}], origin="sync:erp")
    assert _columns(driver) == 4

    answer = _bulk(writer, [{"source": "raw", "target": "stg", "columns": []}], **SYNC)

    assert answer["retired"] == {
        "edges": 0,
        "edges_removed": 0,
        "column_mappings": 2,
        "column_mappings_removed": 1,
    }
    (edge,) = _edges(writer).values()
    assert edge["origins"] == ["sync:crm", "sync:erp"]
    assert [(c["source"], c["target"], c["origins"]) for c in edge["columns"]] == [
        ("id", "id", ["sync:erp"])
    ]
    assert _columns(driver) == 2  # raw.cents and stg.amount are in no column lineage now
    walk = writer.get("/lineage/stg/columns/id/upstream").json()
    assert [(n["asset"], n["column"]) for n in walk["nodes"]] == [("stg", "id"), ("raw", "id")]


def test_an_edge_that_leaves_takes_its_column_mappings(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    _bulk(
        writer,
        [{"source": "raw", "target": "stg", "columns": [{"source": "id", "target": "id"}]}],
        **SYNC,
    )
    answer = _bulk(writer, [], **SYNC)
    assert answer["retired"] == {
        "edges": 1,
        "edges_removed": 1,
        "column_mappings": 1,
        "column_mappings_removed": 1,
    }
    assert _edges(writer) == {} and _columns(driver) == 0


def test_an_empty_replace_clears_the_set_and_an_empty_bulk_without_it_is_422(
    writer: httpx.Client,
) -> None:
    _bulk(writer, [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}], **SYNC)
    refused = writer.post("/lineage/bulk", json=[], params={"origin": "sync:crm"})
    assert refused.status_code == 422 and refused.json()["errors"][0]["loc"] == ["body"]
    assert len(_edges(writer)) == 2

    answer = _bulk(writer, [], **SYNC)
    assert (answer["received"], answer["created"], answer["existing"]) == (0, 0, 0)
    assert answer["retired"]["edges_removed"] == 2
    assert _edges(writer) == {}


def test_repeating_a_replace_changes_and_announces_nothing(writer: httpx.Client) -> None:
    _bulk(writer, [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}], **SYNC)
    edges = [{"source": "a", "target": "b", "transformation": "select 1"}]
    first = _bulk(writer, edges, **SYNC)
    assert first["retired"]["edges_removed"] == 1
    state, seen = _edges(writer), len(_events(writer, "lineage.*"))

    again = _bulk(writer, edges, **SYNC)

    assert again["retired"] == dict.fromkeys(first["retired"], 0)
    assert (again["created"], again["existing"]) == (0, 1)
    assert _edges(writer) == state
    assert len(_events(writer, "lineage.*")) == seen


def test_a_bulk_naming_an_origin_without_replace_adds_to_its_set(writer: httpx.Client) -> None:
    _bulk(writer, [{"source": "a", "target": "b"}], origin="sync:crm")
    answer = _bulk(writer, [{"source": "b", "target": "c"}], origin="sync:crm")
    assert "retired" not in answer
    assert [e["origins"] for e in _edges(writer, origin="sync:crm").values()] == [
        ["sync:crm"],
        ["sync:crm"],
    ]


@pytest.mark.parametrize(
    ("params", "loc", "type_"),
    [
        ({"replace": "true"}, "replace", "value_error"),
        ({"origin": "", "replace": "true"}, "replace", "value_error"),
        ({"origin": "dbt:shop", "replace": "true"}, "origin", "reserved"),
        ({"origin": "OpenLineage:airflow/etl", "replace": "true"}, "origin", "reserved"),
        ({"origin": "sql:log"}, "origin", "reserved"),
        ({"origin": "api", "replace": "true"}, "origin", "reserved"),
        ({"origin": "sync\ncrm"}, "origin", "control_characters"),
        ({"origin": "x" * 257}, "origin", "value_error"),
        ({"origin": "sync:crm", "replace": "perhaps"}, "replace", "bool_parsing"),
    ],
)
def test_a_bad_origin_or_replace_is_422_naming_it_and_writes_nothing(
    writer: httpx.Client, params: dict[str, str], loc: str, type_: str
) -> None:
    _bulk(writer, [{"source": "a", "target": "b"}], **SYNC)
    answer = writer.post("/lineage/bulk", json=[{"source": "x", "target": "y"}], params=params)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    (error,) = answer.json()["errors"]
    assert (error["loc"], error["type"]) == (["query", loc], type_)
    assert sorted(_edges(writer)) == [("a", "b")]


def test_the_openapi_document_states_origin_replace_and_retired(reader: httpx.Client) -> None:
    document = reader.get("/openapi.json").json()
    operation = document["paths"]["/api/v1/lineage/bulk"]["post"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert params["origin"]["schema"]["maxLength"] == 256
    assert "dbt:" in params["origin"]["description"]
    assert params["replace"]["schema"] == {"type": "boolean", "default": False}
    retired = document["components"]["schemas"]["Retired"]["properties"]
    assert set(retired) == {"edges", "edges_removed", "column_mappings", "column_mappings_removed"}
    result = document["components"]["schemas"]["OpenLineageResult"]["properties"]
    assert "retired" in result


# OpenLineage: a job's COMPLETE run replaces the job's set.


def _client_event(
    state: RunState, run_id: str, at: datetime, inputs: list[str], columns: bool = True
) -> RunEvent:
    """inputs -> stg.orders, each input's `id` feeding stg's `order_id` (with `columns`)."""
    fields = {
        f"{name}_id": column_lineage_dataset.Fields(
            inputFields=[column_lineage_dataset.InputField(namespace=PG, name=name, field="id")]
        )
        for name in inputs
    }
    facets: dict[str, Any] = (
        {"columnLineage": column_lineage_dataset.ColumnLineageDatasetFacet(fields=fields)}
        if columns
        else {}
    )
    return RunEvent(
        eventType=state,
        eventTime=at.isoformat(),
        run=Run(runId=run_id),
        job=Job(
            namespace="airflow",
            name="etl.orders",
            facets={"sql": sql_job.SQLJobFacet(query=f"insert into stg.orders -- {at}")},
        ),
        inputs=[InputDataset(namespace=PG, name=name) for name in inputs],
        outputs=[OutputDataset(namespace=PG, name="stg.orders", facets=facets)],
    )


def test_a_jobs_complete_run_retires_what_its_previous_run_asserted(
    live: LiveServer, tokens: Tokens, reader: httpx.Client, driver: neo4j.Driver
) -> None:
    client = OpenLineageClient(
        transport=HttpTransport(
            HttpConfig(url=live.url, auth=ApiKeyTokenProvider({"apiKey": tokens.write}))
        )
    )
    first, second, failed = (str(uuid.uuid4()) for _ in range(3))
    client.emit(_client_event(RunState.START, first, T0, ["raw.orders", "old.orders"]))
    client.emit(
        _client_event(
            RunState.COMPLETE, first, T0 + timedelta(minutes=5), ["raw.orders", "old.orders"]
        )
    )
    assert sorted(_edges(reader)) == [(OLD, STG), (RAW, STG)]
    assert _columns(driver) == 4

    client.emit(_client_event(RunState.START, second, T0 + timedelta(hours=1), ["raw.orders"]))
    assert sorted(_edges(reader)) == [(OLD, STG), (RAW, STG)]  # a START asserts nothing
    client.emit(
        _client_event(RunState.COMPLETE, second, T0 + timedelta(hours=1, minutes=5), ["raw.orders"])
    )
    edges = _edges(reader)
    assert sorted(edges) == [(RAW, STG)]
    assert [(c["source"], c["target"]) for c in edges[RAW, STG]["columns"]] == [
        ("id", "raw.orders_id")
    ]
    assert _columns(driver) == 2
    deleted = _events(reader, "lineage.edge.deleted")
    assert [(e["data"]["source"], e["data"]["target"]) for e in deleted] == [(OLD, STG)]
    assert _events(reader, "lineage.bulk.ingested")[-1]["data"]["retired"] == {
        "edges": 1,
        "edges_removed": 1,
        "column_mappings": 1,
        "column_mappings_removed": 1,
    }

    # A run that fails or is aborted states no set: the job's edges stay as they are.
    for state in (RunState.START, RunState.FAIL):
        client.emit(_client_event(state, failed, T0 + timedelta(hours=2), ["old.orders"]))
    client.emit(
        _client_event(RunState.ABORT, str(uuid.uuid4()), T0 + timedelta(hours=3), ["old.orders"])
    )
    assert sorted(_edges(reader)) == [(RAW, STG)]
    assert len(_events(reader, "lineage.edge.deleted")) == 1
    client.close()


def _event(
    run_id: str, at: datetime, inputs: list[str], sql: str | None = None, state: str = "COMPLETE"
) -> dict[str, Any]:
    """A RunEvent as plain JSON: inputs -> stg.orders."""
    job: dict[str, Any] = {"namespace": "airflow", "name": "etl.orders"}
    if sql is not None:
        job["facets"] = {"sql": {"query": sql}}
    return {
        "eventType": state,
        "eventTime": at.isoformat().replace("+00:00", "Z"),
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": run_id},
        "job": job,
        "inputs": [{"namespace": PG, "name": name} for name in inputs],
        "outputs": [{"namespace": PG, "name": "stg.orders"}],
    }


def _post(client: httpx.Client, events: Any) -> dict[str, Any]:
    answer = client.post("/lineage/openlineage", json=events)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _forget(driver: neo4j.Driver) -> None:
    driver.execute_query(
        "MATCH (n) WHERE n:Asset OR n:Column OR n:OpenLineageRun OR n:OpenLineageJob "
        "DETACH DELETE n"
    )


def test_a_late_complete_of_an_older_run_neither_retires_nor_brings_back(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    older = _event(str(uuid.uuid4()), T0, ["raw.orders", "old.orders"], sql="select 1")
    newer = _event(str(uuid.uuid4()), T0 + timedelta(hours=1), ["raw.orders"])
    _post(writer, older)
    assert _post(writer, newer)["retired"]["edges_removed"] == 1
    in_order = _edges(writer)
    assert sorted(in_order) == [(RAW, STG)]
    _forget(driver)

    assert _post(writer, newer)["retired"]["edges"] == 0
    late = _post(writer, older)

    assert late["retired"] == dict.fromkeys(late["retired"], 0)
    assert late["edges"] == {"created": 0, "existing": 1}
    edges = _edges(writer)
    assert sorted(edges) == [(RAW, STG)]  # old.orders -> stg.orders does not come back
    # The late run still lends its SQL to the edge the newer run kept, as in time order.
    assert edges[RAW, STG]["transformation"] == in_order[RAW, STG]["transformation"] == "select 1"
    assert edges[RAW, STG]["origins"] == [JOB]


def test_a_jobs_run_keeps_an_edge_another_origin_asserts(writer: httpx.Client) -> None:
    _post(writer, _event(str(uuid.uuid4()), T0, ["raw.orders", "old.orders"]))
    old_end = {"namespace": PG, "name": "old.orders"}
    _bulk(writer, [{"source": old_end, "target": STG}], origin="sync:crm")

    answer = _post(writer, _event(str(uuid.uuid4()), T0 + timedelta(hours=1), ["raw.orders"]))

    assert answer["retired"] == {
        "edges": 1,
        "edges_removed": 0,
        "column_mappings": 0,
        "column_mappings_removed": 0,
    }
    edges = _edges(writer)
    assert edges[OLD, STG]["origins"] == ["sync:crm"] and edges[RAW, STG]["origins"] == [JOB]
    assert _events(writer, "lineage.edge.deleted") == []


def test_runs_arriving_in_any_order_end_in_one_graph(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    runs = [
        _event(str(uuid.uuid4()), T0, ["raw.orders", "old.orders"], sql="select 1"),
        _event(str(uuid.uuid4()), T0 + timedelta(hours=1), ["raw.orders", "new.orders"]),
        _event(str(uuid.uuid4()), T0 + timedelta(hours=2), ["raw.orders"], state="FAIL"),
    ]
    graphs = []
    for order in (runs, runs[::-1], [runs[1], runs[0], runs[2]], [runs[::-1]]):
        _forget(driver)
        for events in order:
            _post(writer, events)
        graphs.append(
            {pair: (e["transformation"], e["origins"]) for pair, e in _edges(writer).items()}
        )
    assert graphs[0] == {
        (RAW, STG): ("select 1", [JOB]),
        (f"{PG}/new.orders", STG): (None, [JOB]),
    }
    assert all(graph == graphs[0] for graph in graphs)
