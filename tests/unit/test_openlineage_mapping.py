"""OpenLineage RunEvents -> a write plan (service.domain.openlineage), without a
database: validation locations, run states, edges, column mappings, schemas, and the
order-independence that makes late and repeated events converge."""

from __future__ import annotations

import itertools
import uuid
from typing import Any

import pytest

from service.app import MODULES
from service.domain.lineage import DATASET_MARK
from service.domain.openlineage import normalise_time, order_key, parse_events, plan_events
from service.errors import Unprocessable
from service.openapi import build
from service.settings import Limits

RUN = "3f1e0e1c-6a39-4d5e-9a53-7f4a1c2b9d10"


def event(
    state: str | None = "COMPLETE", time: str = "2026-11-21T12:00:00Z", **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "eventTime": time,
        "producer": "https://example.com/p",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json",
        "run": {"runId": extra.pop("run_id", RUN)},
        "job": {"namespace": "airflow", "name": extra.pop("job", "etl")},
        "inputs": [{"namespace": "pg", "name": "raw"}],
        "outputs": [{"namespace": "pg", "name": "stg"}],
        **extra,
    }
    if state is not None:
        body["eventType"] = state
    return body


def end(namespace: str, name: str) -> str:
    """A dataset end as a plan names it until the store resolves it to an asset."""
    return f"{DATASET_MARK}{namespace}\n{name}"


def plan(body: Any, max_edges: int = 100) -> Any:
    return plan_events(parse_events(body, 100), max_edges)


def locs(exc: pytest.ExceptionInfo[Unprocessable]) -> list[list[Any]]:
    return [list(e.loc) for e in exc.value.errors or []]


def test_a_complete_event_makes_an_edge_per_input_output_pair() -> None:
    body = event(
        inputs=[{"namespace": "pg", "name": "a"}, {"namespace": "pg", "name": "b"}],
        outputs=[{"namespace": "s3://bucket", "name": "out/x.parquet"}],
        job="load",
    )
    body["job"]["facets"] = {"sql": {"query": "insert into x select * from a join b"}}
    result = plan(body)
    assert list(result.edges) == ["openlineage:airflow/load"]
    assert [
        (e["source"], e["target"], e["transformation"])
        for e in result.edges["openlineage:airflow/load"]
    ] == [
        (
            end("pg", "a"),
            end("s3://bucket", "out/x.parquet"),
            "insert into x select * from a join b",
        ),
        (
            end("pg", "b"),
            end("s3://bucket", "out/x.parquet"),
            "insert into x select * from a join b",
        ),
    ]
    assert [r.default_id for r in result.datasets] == ["pg/a", "pg/b", "s3://bucket/out/x.parquet"]
    assert result.complete == 1 and result.received == 1


@pytest.mark.parametrize("state", ["START", "RUNNING", "FAIL", "ABORT", "OTHER", None])
def test_other_states_record_the_run_only(state: str | None) -> None:
    result = plan(event(state))
    assert result.edges == {} and result.datasets == [] and result.schemas == []
    assert result.runs[0]["state"] == (state or "OTHER") and result.runs[0]["run_id"] == RUN


def test_a_run_keeps_its_latest_state_and_ties_go_to_the_finished_one() -> None:
    events = [
        event("COMPLETE", "2026-11-21T12:05:00+02:00"),
        event("START", "2026-11-21T10:00:00Z"),
        event("RUNNING", "2026-11-21T10:05:00Z"),
    ]
    for order in itertools.permutations(events):
        assert plan(list(order)).runs[0]["state"] == "COMPLETE"
    assert order_key(parse_events(event("FAIL"), 1)[0]) > order_key(
        parse_events(event("RUNNING"), 1)[0]
    )


def test_times_normalise_to_utc_and_order_like_instants() -> None:
    assert normalise_time("2026-11-21T14:00:00.5+02:00") == "2026-11-21T12:00:00.500000Z"
    assert normalise_time("2026-11-21T12:00:00") == "2026-11-21T12:00:00.000000Z"
    assert normalise_time("2026-11-21T12:00:00.123456789Z") < normalise_time("2026-11-21T12:00:01Z")


def _lineage_event(time: str, sql: str | None, columns: list[str], run_id: str) -> dict[str, Any]:
    body = event(time=time, run_id=run_id)
    if sql:
        body["job"]["facets"] = {"sql": {"query": sql}}
    body["outputs"][0]["facets"] = {
        "schema": {"fields": [{"name": c, "type": "int"} for c in columns]},
        "columnLineage": {
            "fields": {
                c: {
                    "inputFields": [
                        {
                            "namespace": "pg",
                            "name": "raw",
                            "field": c,
                            "transformations": [{"type": "DIRECT", "subtype": "IDENTITY"}],
                        }
                    ]
                }
                for c in columns
            }
        },
    }
    return body


def test_the_newest_sql_and_schema_win_in_any_order_and_sql_less_events_erase_nothing() -> None:
    events = [
        _lineage_event("2026-11-21T10:00:00Z", "v1", ["a"], str(uuid.uuid4())),
        _lineage_event("2026-11-21T11:00:00Z", "v2", ["a", "b"], str(uuid.uuid4())),
        _lineage_event("2026-11-21T12:00:00Z", None, ["a", "b"], str(uuid.uuid4())),
    ]
    results = [plan(list(order)) for order in itertools.permutations(events)]
    for result in results:
        assert result == results[0]
    edge = results[0].edges["openlineage:airflow/etl"][0]
    assert (edge["transformation"], edge["at"]) == ("v2", "2026-11-21T11:00:00.000000Z")
    schema = results[0].schemas[0]
    assert (
        schema["id"] == end("pg", "stg") and schema["event_time"] == "2026-11-21T12:00:00.000000Z"
    )
    assert (
        schema["columns_json"]
        == '[{"name":"a","type":"int","tags":[]},{"name":"b","type":"int","tags":[]}]'
    )
    columns = results[0].columns["openlineage:airflow/etl"]
    assert [(c["source_key"], c["target_key"], c["transformation"]) for c in columns] == [
        (end("pg", "raw") + "\na", end("pg", "stg") + "\na", "DIRECT/IDENTITY"),
        (end("pg", "raw") + "\nb", end("pg", "stg") + "\nb", "DIRECT/IDENTITY"),
    ]


def test_column_lineage_from_a_dataset_not_among_the_inputs_adds_its_edge() -> None:
    body = event(inputs=[])
    body["outputs"][0]["facets"] = {
        "columnLineage": {
            "fields": {
                "id": {
                    "inputFields": [{"namespace": "pg", "name": "other", "field": "key"}],
                    "transformationDescription": "hash(key)",
                },
                "self": {"inputFields": [{"namespace": "pg", "name": "stg", "field": "old"}]},
            }
        }
    }
    result = plan(body)
    assert [(e["source"], e["target"]) for e in result.edges["openlineage:airflow/etl"]] == [
        (end("pg", "other"), end("pg", "stg"))
    ]
    assert result.columns["openlineage:airflow/etl"][0]["transformation"] == "hash(key)"
    assert result.warnings == [
        "openlineage:airflow/etl reads and writes 'pg/stg': no edge from a dataset to itself"
    ]


def test_bad_events_name_the_field() -> None:
    missing_run = event()
    del missing_run["run"]
    with pytest.raises(Unprocessable) as exc:
        parse_events(missing_run, 10)
    assert locs(exc) == [["body", "run"]]
    with pytest.raises(Unprocessable) as exc:
        parse_events([event(), event("LATER"), {**event(), "eventTime": 1}], 10)
    assert locs(exc) == [["body", 1, "eventType"], ["body", 2, "eventTime"]]
    with pytest.raises(Unprocessable) as exc:
        parse_events(event(run_id="123"), 10)
    assert locs(exc) == [["body", "run", "runId"]]
    with pytest.raises(Unprocessable) as exc:
        parse_events([event()] * 3, 2)
    assert exc.value.code == "too_many_items"


def refusals(exc: pytest.ExceptionInfo[Unprocessable]) -> list[tuple[list[Any], str, str]]:
    return [(list(e.loc), e.type, e.msg) for e in exc.value.errors or []]


@pytest.mark.parametrize("state", ["COMPLETE", "START", None])
def test_datasets_that_cannot_be_assets_are_refused_in_any_event(state: str | None) -> None:
    column = {"namespace": "pg", "name": "raw\u200b", "field": "id"}
    body = event(
        state,
        inputs=[{"namespace": "file", "name": "my file.csv"}],
        outputs=[
            {"namespace": "pg\tprod", "name": "stg"},
            {
                "namespace": "pg",
                "name": "mart",
                "facets": {"columnLineage": {"fields": {"id": {"inputFields": [column]}}}},
            },
        ],
    )
    with pytest.raises(Unprocessable) as exc:
        parse_events(body, 10)
    found = refusals(exc)
    where = ["body", "outputs", 1, "facets", "columnLineage", "fields", "id", "inputFields", 0]
    assert [(loc, kind) for loc, kind, _ in found] == [
        (["body", "inputs", 0, "name"], "invalid_dataset_id"),
        (["body", "outputs", 0, "namespace"], "invalid_dataset_id"),
        ([*where, "name"], "invalid_dataset_id"),
    ]
    assert "whitespace" in found[0][2] and "whitespace" in found[1][2]
    assert "U+200B" in found[2][2]


def test_a_dataset_id_is_at_most_an_asset_ids_length_with_the_slash() -> None:
    longest = {"namespace": "n" * 255, "name": "x" * 256}  # 512 with the slash
    assert plan(event(inputs=[longest])).datasets[0].default_id == f"{'n' * 255}/{'x' * 256}"
    with pytest.raises(Unprocessable) as exc:
        parse_events(event(inputs=[{**longest, "name": "x" * 257}]), 10)
    assert [(loc, kind) for loc, kind, _ in refusals(exc)] == [
        (["body", "inputs", 0, "name"], "invalid_dataset_id")
    ]
    assert "at most 512 characters together, not 513" in refusals(exc)[0][2]
    with pytest.raises(Unprocessable) as exc:  # a part that could never fit
        parse_events(event(outputs=[{"namespace": "n" * 511, "name": "x"}]), 10)
    assert [loc for loc, _, _ in refusals(exc)] == [["body", "outputs", 0, "namespace"]]


def test_too_many_edges_are_refused_before_anything_is_written() -> None:
    body = event(
        inputs=[{"namespace": "pg", "name": f"i{i}"} for i in range(4)],
        outputs=[{"namespace": "pg", "name": f"o{i}"} for i in range(3)],
    )
    assert sum(len(r) for r in plan(body, max_edges=12).edges.values()) == 12
    with pytest.raises(Unprocessable) as exc:
        plan(body, max_edges=11)
    assert exc.value.code == "too_many_items"


def test_the_openapi_document_describes_the_new_operations() -> None:
    routes = [r for m in MODULES for r in m.routes]
    docs = {k: v for m in MODULES for k, v in m.docs.items()}
    document = build(routes, docs, {"title": "t", "version": "1"}, Limits())
    paths = document["paths"]
    post = paths["/api/v1/lineage/openlineage"]["post"]
    assert post["x-required-scope"] == "write"
    assert post["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RunEvents"
    }
    assert "200" in post["responses"] and "422" in post["responses"]
    for direction in ("upstream", "downstream"):
        op = paths[f"/api/v1/lineage/{{asset_id}}/columns/{{column}}/{direction}"]["get"]
        assert {p["name"] for p in op["parameters"]} >= {"asset_id", "column", "depth", "limit"}
        assert "404" in op["responses"]
    schemas = document["components"]["schemas"]
    assert {"RunEvent", "EdgeIn", "ColumnGraph", "OpenLineageResult", "ColumnMapIn"} <= set(schemas)
    assert "columns" in schemas["Edge"]["properties"]
    part = {"$ref": "#/components/schemas/DatasetIdPart"}
    for dataset in ("InputDataset", "OutputDataset", "InputField"):
        properties = schemas[dataset]["properties"]
        assert (properties["namespace"], properties["name"]) == (part, part), dataset
    assert schemas["Job"]["properties"]["name"]["maxLength"] == 1024  # a job is no asset
