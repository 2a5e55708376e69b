"""Reading dbt run_results.json: statuses, times, and every wrong shape with its loc."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.domain.dbt.contents import ManifestError
from service.domain.dbt.run_results import read_run_results

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality"
SCHEMA = "https://schemas.getdbt.com/dbt/run-results/v6.json"


def _doc(*results: object) -> dict[str, Any]:
    return {
        "metadata": {
            "dbt_schema_version": SCHEMA,
            "generated_at": "2026-03-01T10:00:00.123456Z",
            "invocation_id": "inv-1",
        },
        "results": list(results),
    }


def test_statuses_map_to_results_and_non_tests_are_set_aside() -> None:
    read = read_run_results(
        _doc(
            {"unique_id": "test.p.a", "status": "pass", "failures": 0},
            {"unique_id": "test.p.b", "status": "fail", "failures": 3, "message": "3 rows"},
            {"unique_id": "test.p.c", "status": "warn", "failures": 1},
            {"unique_id": "test.p.d", "status": "error", "message": "boom"},
            {"unique_id": "test.p.e", "status": "skipped"},
            {"unique_id": "model.p.m", "status": "success"},
            {"unique_id": "unit_test.p.u", "status": "pass"},
        )
    )
    assert [(t.unique_id, t.status, t.failures) for t in read.tests] == [
        ("test.p.a", "pass", 0),
        ("test.p.b", "fail", 3),
        ("test.p.c", "fail", 1),
        ("test.p.d", "error", None),
    ]
    assert (read.received, read.skipped, read.ignored) == (7, 1, 2)
    assert read.invocation_id == "inv-1"
    assert read.tests[0].run_at == "2026-03-01T10:00:00.123Z"  # no timing: generated_at


def test_run_at_is_when_execution_completed() -> None:
    timing = [
        {"name": "compile", "completed_at": "2026-03-01T09:00:00Z"},
        {"name": "execute", "completed_at": "2026-03-01T09:00:05.5Z"},
    ]
    read = read_run_results(_doc({"unique_id": "test.p.a", "status": "pass", "timing": timing}))
    assert read.tests[0].run_at == "2026-03-01T09:00:05.500Z"


@pytest.mark.parametrize(
    "name", ["run_results_passing.json", "run_results_failing.json", "run_results_passing_v4.json"]
)
def test_artifacts_made_by_dbt_read_whole(name: str) -> None:
    document = json.loads((FIXTURES / name).read_text())
    read = read_run_results(document)
    tests = [r for r in document["results"] if r["unique_id"].startswith("test.")]
    assert len(read.tests) + read.skipped == len(tests)
    assert read.received == len(document["results"])


@pytest.mark.parametrize(
    ("document", "loc"),
    [
        ([], ()),
        ({"metadata": {"dbt_schema_version": SCHEMA}}, ("results",)),
        ({"metadata": {}, "results": []}, ("metadata", "dbt_schema_version")),
        (
            {"metadata": {"dbt_schema_version": SCHEMA.replace("v6", "v2")}, "results": []},
            ("metadata", "dbt_schema_version"),
        ),
        (_doc("x"), ("results", 0)),
        (_doc({"status": "pass"}), ("results", 0, "unique_id")),
        (_doc({"unique_id": "test.a"}), ("results", 0, "status")),
        (_doc({"unique_id": "test.a", "status": "maybe"}), ("results", 0, "status")),
        (
            _doc({"unique_id": "test.a", "status": "fail", "failures": 1.5}),
            ("results", 0, "failures"),
        ),
        (
            _doc({"unique_id": "test.a", "status": "fail", "timing": [{"completed_at": "soon"}]}),
            ("results", 0, "timing", 0, "completed_at"),
        ),
    ],
)
def test_wrong_shapes_name_their_field(document: Any, loc: tuple[Any, ...]) -> None:
    with pytest.raises(ManifestError) as caught:
        read_run_results(document)
    assert caught.value.loc == loc
