"""Edge sets owned by their writers, without a database: which origins a caller may
claim, and how an OpenLineage plan keeps each job's newest COMPLETE run as its set."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain import origins
from service.domain.lineage import DATASET_MARK, validate_edges
from service.domain.openlineage import parse_events, plan_events
from service.domain.sql_plan import ORIGIN_PREFIX as SQL_ORIGIN_PREFIX
from service.errors import Unprocessable

RUNS = ("3f1e0e1c-6a39-4d5e-9a53-7f4a1c2b9d10", "0d6f1c8e-2b1a-4c3e-8f5d-1a2b3c4d5e6f")


@pytest.mark.parametrize("name", ["sync:crm", "Fivetran", "a b", "ß:x", "dbtx:shop", "apis"])
def test_a_callers_own_origin_is_taken(name: str) -> None:
    assert origins.refusal(name) is None


@pytest.mark.parametrize(
    "name", ["api", "API", "dbt:shop", "DBT:shop", "openlineage:airflow/etl", "sql:log", "Sql:"]
)
def test_the_services_own_origins_are_refused(name: str) -> None:
    refused = origins.refusal(name)
    assert refused is not None and refused[1] == "reserved"


@pytest.mark.parametrize("name", ["a\nb", "tab\there", "nul\x00", "c1\x85"])
def test_an_origin_with_control_characters_is_refused(name: str) -> None:
    refused = origins.refusal(name)
    assert refused is not None and refused[1] == "control_characters"


def test_the_writers_name_themselves_with_the_reserved_prefixes() -> None:
    assert SQL_ORIGIN_PREFIX in origins.RESERVED_PREFIXES
    job = plan_events(parse_events(_event("COMPLETE", "12:00", ["raw"], ["stg"]), 10), 10)
    assert list(job.complete_keys) == ["openlineage:airflow/etl"]
    assert origins.refusal(next(iter(job.complete_keys))) is not None


def test_an_empty_bulk_is_a_batch_only_when_allowed() -> None:
    with pytest.raises(Unprocessable):
        validate_edges([], 10)
    empty = validate_edges([], 10, allow_empty=True)
    assert (empty.received, empty.rows, empty.columns) == (0, [], [])


def _event(
    state: str,
    time: str,
    inputs: list[str],
    outputs: list[str],
    run: int = 0,
    sql: str | None = None,
    columns: dict[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    def dataset(name: str) -> dict[str, Any]:
        return {"namespace": "pg", "name": name}

    body: dict[str, Any] = {
        "eventType": state,
        "eventTime": f"2026-11-21T{time}:00Z",
        "producer": "https://example.com/p",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json",
        "run": {"runId": RUNS[run]},
        "job": {"namespace": "airflow", "name": "etl"},
        "inputs": [dataset(n) for n in inputs],
        "outputs": [dataset(n) for n in outputs],
    }
    if sql is not None:
        body["job"]["facets"] = {"sql": {"query": sql}}
    if columns:
        body["outputs"][0]["facets"] = {
            "columnLineage": {
                "fields": {
                    out: {"inputFields": [{**dataset(src), "field": field}]}
                    for out, (src, field) in columns.items()
                }
            }
        }
    return body


def _pairs(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    plan = plan_events(parse_events(events, 10), 10)
    return [
        (row["source"].removeprefix(DATASET_MARK + "pg\n"), row["target"].split("\n")[-1])
        for rows in plan.edges.values()
        for row in rows
    ]


def test_the_newest_complete_of_a_job_is_its_set_in_any_order() -> None:
    older = _event("COMPLETE", "12:00", ["raw", "old"], ["stg"])
    newer = _event("COMPLETE", "13:00", ["raw"], ["stg"], run=1)
    assert _pairs([older, newer]) == _pairs([newer, older]) == [("raw", "stg")]


def test_completes_at_the_same_instant_add_up() -> None:
    one = _event("COMPLETE", "12:00", ["a"], ["stg"])
    other = _event("COMPLETE", "12:00", ["b"], ["stg"], run=1)
    assert _pairs([one, other]) == [("a", "stg"), ("b", "stg")]


def test_a_newer_complete_keeps_an_older_transformation_for_an_edge_it_keeps() -> None:
    older = _event("COMPLETE", "12:00", ["raw", "old"], ["stg"], sql="select 1")
    newer = _event("COMPLETE", "13:00", ["raw"], ["stg"], run=1)
    plan = plan_events(parse_events([newer, older], 10), 10)
    ((row,),) = plan.edges.values()
    assert row["transformation"] == "select 1"
    assert plan.complete_keys["openlineage:airflow/etl"].startswith("2026-11-21T13:00")


def test_column_mappings_follow_the_newest_complete() -> None:
    older = _event(
        "COMPLETE", "12:00", ["raw"], ["stg"], columns={"a": ("raw", "a"), "b": ("raw", "b")}
    )
    newer = _event("COMPLETE", "13:00", ["raw"], ["stg"], run=1, columns={"a": ("raw", "a")})
    plan = plan_events(parse_events([older, newer], 10), 10)
    ((rows),) = plan.columns.values()
    assert [(r["source_column"], r["target_column"]) for r in rows] == [("a", "a")]


def test_a_complete_naming_no_dataset_says_nothing_of_the_set() -> None:
    first = _event("COMPLETE", "12:00", ["raw"], ["stg"])
    bare = _event("COMPLETE", "13:00", [], [], run=1)
    plan = plan_events(parse_events([first, bare], 10), 10)
    assert plan.complete_keys["openlineage:airflow/etl"].startswith("2026-11-21T12:00")
    assert _pairs([first, bare]) == [("raw", "stg")]


def test_a_complete_with_inputs_only_states_an_empty_set() -> None:
    first = _event("COMPLETE", "12:00", ["raw"], ["stg"])
    reads_only = _event("COMPLETE", "13:00", ["raw"], [], run=1)
    plan = plan_events(parse_events([first, reads_only], 10), 10)
    assert plan.complete_keys["openlineage:airflow/etl"].startswith("2026-11-21T13:00")
    assert plan.edges == {} and plan.columns == {}


@pytest.mark.parametrize("state", ["START", "RUNNING", "FAIL", "ABORT", "OTHER"])
def test_only_a_complete_states_a_set(state: str) -> None:
    plan = plan_events(parse_events([_event(state, "12:00", ["raw"], ["stg"])], 10), 10)
    assert plan.complete_keys == {} and plan.edges == {}
