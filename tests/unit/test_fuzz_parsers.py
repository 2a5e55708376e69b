"""Fuzzing the parsers of untrusted input: only their documented errors may come out.

Each parser is fed random JSON and, where there is a real document to start from,
mutations of it (keys deleted or replaced by random values at random depths), which
reach far deeper than random JSON alone. Whatever the input, the parser answers or
raises its own error type, the one the API maps to a 4xx; a KeyError, TypeError,
RecursionError, OverflowError... escaping would be a 500.

The runs are derandomised (the same examples every time) and bounded so that the
whole file takes a few seconds; a failing example is pinned with `@example`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from service.clock import format_time
from service.domain import merge_patch
from service.domain.cursor import decode_cursor, encode_cursor
from service.domain.dbt.run_results import read_run_results
from service.domain.dbt_manifest import ManifestError, read_manifest
from service.domain.manifest_plan import plan_assets, plan_column_edges, plan_rules
from service.domain.openlineage import normalise_time, parse_events, plan_events
from service.domain.query import Bounds, compile_query
from service.domain.query.guard import refusal
from service.domain.webhook_targets import TargetRefused, check_url, normalise_url
from service.errors import ServiceError, Unprocessable
from service.ids import id_problem, normalise
from service.models.query import Query
from tests.support.dbt_fixtures import load
from tests.support.fuzzing import (
    FIXTURES,
    FUZZ,
    HEAVY,
    MANIFESTS,
    json_objects,
    json_values,
    mutations,
    nest,
    replaced,
)


def only(errors: tuple[type[BaseException], ...], call: Callable[[], Any]) -> None:
    """Run `call`; the parser's own errors are its answer, anything else fails the test."""
    with contextlib.suppress(*errors):
        call()


# ---------------------------------------------------------------- dbt manifest


@FUZZ
@given(document=json_values | json_objects.map(lambda d: {"nodes": {}, **d}))
def test_random_json_is_a_manifest_or_a_manifest_error(document: Any) -> None:
    only((ManifestError,), lambda: read_manifest(document))


@pytest.mark.parametrize("index", range(len(MANIFESTS)))
def test_mutated_real_manifests_give_a_manifest_error_at_worst(index: int) -> None:
    @HEAVY
    @given(document=mutations(MANIFESTS[index], most=6))
    def run(document: Any) -> None:
        only((ManifestError,), lambda: read_manifest(document, column_lineage=False))

    run()


def _read_and_plan(document: Any) -> None:
    """The reader, then the pure plan of what ingesting it writes (which serialises
    rule params, so a value the reader let through must be writable)."""
    contents = read_manifest(document, column_lineage=True)
    assets = plan_assets(contents.assets, {}, "2026-01-01T00:00:00.000Z")
    plan_rules(contents.rules, {}, assets.written_ids, "dbt:p", "2026-01-01T00:00:00.000Z")
    plan_column_edges(contents, {(e.source, e.target) for e in contents.edges})


def _first_test_kwargs(document: Any) -> tuple[Any, ...]:
    for uid, node in document["nodes"].items():
        if (node.get("test_metadata") or {}).get("kwargs"):
            return ("nodes", uid, "test_metadata", "kwargs", "fuzz")
    raise AssertionError("the fixture has no generic test")


@HEAVY
@given(document=mutations(MANIFESTS[0], most=3))
@example(document=replaced(MANIFESTS[0], _first_test_kwargs(MANIFESTS[0]), nest(300, "list", 1)))
def test_mutated_manifests_read_and_plan_or_give_a_manifest_error(document: Any) -> None:
    only((ManifestError,), lambda: _read_and_plan(document))


def test_test_kwargs_nested_too_deeply_to_be_stored_are_refused_with_their_loc() -> None:
    where = _first_test_kwargs(MANIFESTS[0])
    with pytest.raises(ManifestError, match="nested deeper than 200") as caught:
        read_manifest(replaced(MANIFESTS[0], where, nest(300, "mixed", 1)))
    assert caught.value.loc == where[:-1]
    assert read_manifest(replaced(MANIFESTS[0], where, nest(150, "mixed", 1))).rules


# ---------------------------------------------------------------- run_results

RUN_RESULTS = [
    load(FIXTURES / "dbt_quality" / "run_results_failing.json"),
    load(FIXTURES / "dbt_quality" / "run_results_passing_v4.json"),
    load(FIXTURES / "dbt_versions" / "run_results_dbt1.11.16.json.gz"),
]
times = st.datetimes().map(lambda t: t.isoformat()) | st.sampled_from(
    ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "2026-01-01T00:00:00Z"]
)


@FUZZ
@given(
    document=json_values
    | json_objects.map(
        lambda d: {
            "metadata": {"dbt_schema_version": "https://x/run-results/v6.json"},
            "results": [d],
        }
    )
)
def test_random_json_is_run_results_or_a_manifest_error(document: Any) -> None:
    only((ManifestError,), lambda: read_run_results(document))


@pytest.mark.parametrize("index", range(len(RUN_RESULTS)))
def test_mutated_real_run_results_give_a_manifest_error_at_worst(index: int) -> None:
    @HEAVY
    @given(document=mutations(RUN_RESULTS[index], most=6))
    def run(document: Any) -> None:
        only((ManifestError,), lambda: read_run_results(document))

    run()


@FUZZ
@given(generated=times, completed=times)
@example(generated="0001-01-01T00:00:00+01:00", completed="2026-01-01T00:00:00Z")
@example(generated="2026-01-01T00:00:00Z", completed="9999-12-31T23:59:59-01:00")
def test_run_result_times_at_the_ends_of_the_calendar(generated: str, completed: str) -> None:
    document = {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
            "generated_at": generated,
        },
        "results": [
            {
                "unique_id": "test.p.a",
                "status": "pass",
                "timing": [{"name": "execute", "completed_at": completed}],
            }
        ],
    }
    only((ManifestError,), lambda: read_run_results(document))


def test_times_keep_a_four_digit_year_so_that_they_sort() -> None:
    document = {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
            "generated_at": "0005-01-01T00:00:00Z",
        },
        "results": [{"unique_id": "test.p.a", "status": "pass"}],
    }
    assert read_run_results(document).tests[0].run_at == "0005-01-01T00:00:00.000Z"
    assert format_time(datetime(2026, 3, 1, 10, 0, 0, 123999, UTC)) == "2026-03-01T10:00:00.123Z"
    assert normalise_time("0999-12-31T23:00:00-01:00") == "1000-01-01T00:00:00.000000Z"
    assert normalise_time("0005-01-01T00:00:00") < normalise_time("2026-01-01T00:00:00")


def test_times_outside_the_calendar_in_utc_are_refused_with_their_loc() -> None:
    document = {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
            "generated_at": "0001-01-01T00:00:00+01:00",
        },
        "results": [],
    }
    with pytest.raises(ManifestError) as caught:
        read_run_results(document)
    assert caught.value.loc == ("metadata", "generated_at")
    with pytest.raises(Unprocessable) as refused:
        parse_events({**EVENT, "eventTime": "9999-12-31T23:59:59-01:00"}, 10)
    assert [e.loc for e in refused.value.errors or []] == [("body", "eventTime")]


# ---------------------------------------------------------------- OpenLineage

RUN_ID = "3f1e0e1c-6a39-4d5e-9a53-7f4a1c2b9d10"
EVENT: dict[str, Any] = {
    "eventTime": "2026-11-21T12:00:00Z",
    "eventType": "COMPLETE",
    "producer": "https://example.com/p",
    "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json",
    "run": {"runId": RUN_ID},
    "job": {"namespace": "airflow", "name": "etl", "facets": {"sql": {"query": "select 1"}}},
    "inputs": [
        {
            "namespace": "pg",
            "name": "raw",
            "facets": {"schema": {"fields": [{"name": "id", "type": "int"}]}},
        }
    ],
    "outputs": [
        {
            "namespace": "pg",
            "name": "stg",
            "facets": {
                "schema": {"fields": [{"name": "id", "type": "int"}]},
                "columnLineage": {
                    "fields": {
                        "id": {
                            "inputFields": [
                                {
                                    "namespace": "pg",
                                    "name": "raw",
                                    "field": "id",
                                    "transformations": [{"type": "DIRECT", "subtype": "IDENTITY"}],
                                }
                            ]
                        }
                    }
                },
            },
        }
    ],
}


def _openlineage(body: Any) -> None:
    plan_events(parse_events(body, 10), 100)


@FUZZ
@given(body=json_values | mutations(EVENT, most=5) | st.lists(mutations(EVENT), max_size=3))
def test_openlineage_events_give_a_422_at_worst(body: Any) -> None:
    only((ServiceError,), lambda: _openlineage(body))


@FUZZ
@given(first=times, second=times)
@example(first="0001-01-01T00:00:00+01:00", second="2026-01-01T00:00:00Z")
@example(first="9999-12-31T23:59:59-01:00", second="2026-01-01T00:00:00Z")
def test_openlineage_event_times_at_the_ends_of_the_calendar(first: str, second: str) -> None:
    body = [{**EVENT, "eventTime": first}, {**EVENT, "eventTime": second}]
    only((ServiceError,), lambda: _openlineage(body))


# ---------------------------------------------------------------- query compiler

BOUNDS = Bounds(max_depth=10, max_limit=100, path_cap=100)
QUERIES: list[dict[str, Any]] = [
    {"start": {"ids": ["a"]}, "traverse": {"direction": "both", "max_depth": 3}},
    {
        "start": {"where": {"type": "table", "tags_any": ["x"], "properties": {"k": [1, "v"]}}},
        "traverse": {"where": {"platform": "pg"}, "through": {"placeholder": False}},
        "return": "edges",
    },
    {"path": {"from": "a", "to": "b", "through": {"owner": "o"}, "all_shortest": True}},
    {"start": {"where": {"name_contains": "x"}}, "return": "count"},
]


def _compile(document: Any, after: Any) -> None:
    compile_query(Query.model_validate(document), BOUNDS, after)


@FUZZ
@given(
    document=json_values | st.sampled_from(QUERIES).flatmap(lambda q: mutations(q, most=3)),
    after=json_values,
)
def test_queries_compile_or_give_a_4xx(document: Any, after: Any) -> None:
    only((ValidationError, ServiceError), lambda: _compile(document, after))


@FUZZ
@given(cursor=st.text(max_size=60) | json_values.map(lambda v: encode_cursor({"after": v})))
def test_query_cursors_decode_or_give_a_400(cursor: str) -> None:
    def run() -> None:
        after = decode_cursor(cursor, ["after"])["after"]
        for query in QUERIES:
            compile_query(Query.model_validate(query), BOUNDS, after)

    only((ServiceError,), run)


# ---------------------------------------------------------------- Cypher guard

OPERATOR_NAMES = st.sampled_from(
    ["ProduceResults", "AllNodesScan", "ProcedureCall", "LoadCSV", "ShowDatabases", "Filter"]
) | st.text(max_size=12)
operators = st.recursive(
    st.fixed_dictionaries(
        {"operatorType": OPERATOR_NAMES | json_values},
        optional={"args": json_values | st.fixed_dictionaries({"Details": json_values})},
    ),
    lambda inner: st.fixed_dictionaries(
        {"operatorType": OPERATOR_NAMES, "children": st.lists(inner, max_size=3)}
    ),
    max_leaves=10,
)


@FUZZ
@given(query_type=st.none() | st.sampled_from(["r", "rw", "w", "s"]), plan=st.none() | operators)
@example(query_type="r", plan={"operatorType": "ProcedureCall", "args": True})
def test_the_cypher_guard_judges_any_plan(query_type: str | None, plan: Any) -> None:
    reason = refusal(query_type, plan)
    assert reason is None or isinstance(reason, str)
    if query_type != "r":
        assert reason is not None


@pytest.mark.parametrize(
    "plan",
    [
        {"operatorType": "ProcedureCall@neo4j", "args": ["db.labels()"]},
        {"operatorType": "ProduceResults@neo4j", "children": "LoadCSV"},
        {"operatorType": "ProduceResults@neo4j", "children": [None]},
        {"operatorType": "ProduceResults@neo4j", "children": [["LoadCSV@neo4j"]]},
    ],
)
def test_a_plan_of_an_unknown_shape_is_refused(plan: Any) -> None:
    assert refusal("r", plan) is not None


# ---------------------------------------------------------------- webhook URLs

url_parts = st.sampled_from(
    ["https://", "http://", "ftp://", "https://u:p@", "//", "", "https://[", "https://[::1]"]
)
hosts = st.sampled_from(
    ["example.com", "127.0.0.1", "0x7f.1", "①②⑦.0.0.1", "[::ffff:127.0.0.1]", "xn--", "a..b"]
) | st.text(max_size=30)
ports = st.sampled_from(["", ":443", ":0", ":65536", ":-1", ":x", ":"])


@FUZZ
@given(
    url=st.text(max_size=80)
    | st.builds(lambda a, b, c, d: a + b + c + d, url_parts, hosts, ports, st.text(max_size=10)),
    allow_private=st.booleans(),
)
@example(url="https://" + "a" * 64 + "é.com/", allow_private=False)
def test_webhook_urls_are_accepted_or_refused(url: str, allow_private: bool) -> None:
    def run() -> None:
        check_url(normalise_url(url), allow_private)

    only((TargetRefused,), run)


# ---------------------------------------------------------------- merge patch, ids, cursors


@FUZZ
@given(target=json_values, patch=json_values)
def test_merge_patch_is_total_and_leaves_its_arguments_alone(target: Any, patch: Any) -> None:
    before = orjson.dumps([target, patch])
    result = merge_patch.apply(target, patch)
    assert orjson.dumps([target, patch]) == before
    if isinstance(patch, dict):
        assert isinstance(result, dict)
        for key, value in patch.items():
            assert (key not in result) if value is None else key in result


def test_merge_patch_takes_the_deepest_patch_the_api_reads() -> None:
    patch: Any = {"leaf": 1}
    for _ in range(200):  # service.http.MAX_JSON_DEPTH
        patch = {"a": patch}
    assert merge_patch.apply({}, patch)


@FUZZ
@given(value=st.text(max_size=600) | st.text(alphabet=st.characters(codec="utf-8"), max_size=20))
@example(value="\ud800")
def test_id_rules_answer_for_any_text(value: str) -> None:
    problem = id_problem(normalise(value))
    assert problem is None or isinstance(problem, str)


@FUZZ
@given(
    cursor=st.text(max_size=60)
    | st.binary(max_size=40).map(lambda b: encode_cursor({"after": b.hex()})[: len(b)])
    | json_values.map(lambda v: encode_cursor({"after": v}) if isinstance(v, dict) else str(v))
)
@example(cursor="é")
@example(cursor="W10")
def test_cursors_decode_or_give_a_400(cursor: str) -> None:
    only((ServiceError,), lambda: decode_cursor(cursor, ["after"]))
