"""POST /quality/results/dbt: run_results.json files made by dbt itself (tests/fixtures/
dbt_quality, and the builds in tests/fixtures/dbt_versions; see their READMEs for how)
recorded against the rules a manifest upload made."""

from __future__ import annotations

import gzip
import json
from collections import deque
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest

from tests.support.dbt_fixtures import (
    SCHEMAS,
    load,
    manifest_path,
    public,
    public_manifests,
    run_results_path,
)

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality"


def _load(path: Path) -> dict[str, Any]:
    return dict(load(path))


def _post(client: httpx.Client, path: str, document: Any) -> httpx.Response:
    return client.post(
        path, content=json.dumps(document), headers={"Content-Type": "application/json"}
    )


def _ingest_manifest(client: httpx.Client, path: Path) -> None:
    response = _post(client, "/lineage/manifest", _load(path))
    assert response.status_code == 200, response.text


def _record(client: httpx.Client, name: str) -> dict[str, Any]:
    response = _post(client, "/quality/results/dbt", _load(HERE / name))
    assert response.status_code == 200, response.text
    return dict(response.json())


def _tests_by_status(run_results: dict[str, Any]) -> dict[str, set[str]]:
    """Independent of the service: what dbt says about each test."""
    by: dict[str, set[str]] = {}
    for result in run_results["results"]:
        if result["unique_id"].startswith("test."):
            by.setdefault(result["status"], set()).add(result["unique_id"])
    return by


def _rules(client: httpx.Client) -> dict[str, dict[str, Any]]:
    response = client.get("/quality/rules", params={"limit": 500})
    return {r["id"]: r for r in response.json()["items"]}


def _alerts(client: httpx.Client) -> list[dict[str, Any]]:
    response = client.get("/events", params={"types": "quality.rule.*", "limit": 500})
    return [e for e in response.json()["items"] if e.get("alert")]


def _downstream(manifest: dict[str, Any], start: str) -> list[str]:
    """Assets downstream of `start` by the manifest's own child_map, nearest first."""
    seen, order, queue = {start}, [], deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(manifest["child_map"].get(node, [])):
            if child.split(".")[0] in ("model", "seed", "snapshot") and child not in seen:
                seen.add(child)
                order.append(child)
                queue.append(child)
    return order


def test_passing_then_failing_then_passing_runs(writer: httpx.Client) -> None:
    manifest = _load(HERE / "manifest.json")
    _ingest_manifest(writer, HERE / "manifest.json")
    rules = _rules(writer)
    passing = _load(HERE / "run_results_passing.json")
    tests = set().union(*_tests_by_status(passing).values())
    assert tests <= set(rules)  # the manifest made a rule for every test dbt ran

    first = _record(writer, "run_results_passing.json")
    assert first["received"] == len(passing["results"])
    assert first["recorded"] == len(tests) and first["unmatched"] == []
    assert first["ignored"] == len(passing["results"]) - len(tests)
    assert first["failed"] == [] and first["recovered"] == []
    assert {r["status"] for r in _rules(writer).values() if r["id"] in tests} == {"passing"}

    failing = _load(HERE / "run_results_failing.json")
    statuses = _tests_by_status(failing)
    second = _record(writer, "run_results_failing.json")
    turned = statuses["fail"] | statuses["warn"]  # dbt's warn: failing rows at severity warn
    assert sorted(second["failed"]) == sorted(turned)
    now = _rules(writer)
    assert {now[t]["status"] for t in turned} == {"failing"}
    assert {now[t]["status"] for t in statuses["error"]} == {"error"}
    assert {now[t]["status"] for t in statuses["pass"]} == {"passing"}
    some = sorted(statuses["fail"])[0]
    assert now[some]["last_result"]["observed_value"] == next(
        r["failures"] for r in failing["results"] if r["unique_id"] == some
    )

    alerts = _alerts(writer)
    assert sorted(a["data"]["rule_id"] for a in alerts) == sorted(turned)
    for alert in alerts:
        asset_id = now[alert["data"]["rule_id"]]["asset_id"]
        want = _downstream(manifest, asset_id)
        impact = alert["data"]["impact"]
        assert impact["downstream_count"] == len(want)
        assert set(impact["downstream_ids"]) == set(want)
    stg_orders = next(a for a in alerts if a["data"]["asset_id"] == "model.quality_shop.stg_orders")
    assert set(stg_orders["data"]["impact"]["owners"]) == {
        "analytics-team@example.com",
        "finance-team@example.com",
    }

    repeat = _record(writer, "run_results_failing.json")  # the same invocation again
    assert repeat["recorded"] == 0 and repeat["duplicates"] == len(set().union(*statuses.values()))
    assert repeat["unmatched"] == []
    assert len(_alerts(writer)) == len(turned)

    third = _record(writer, "run_results_passing_v4.json")  # dbt 1.4, schema v4, passing
    assert sorted(third["recovered"]) == sorted(turned)  # error -> pass is no recovery
    assert {r["status"] for r in _rules(writer).values() if r["id"] in tests} == {"passing"}
    history = writer.get(f"/quality/rules/{some}/results").json()["items"]
    assert [h["status"] for h in history] == ["pass", "fail", "pass"]  # newest run first


def test_results_without_rules_are_reported_not_refused(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    passing = _load(HERE / "run_results_passing.json")
    summary = _record(writer, "run_results_passing.json")
    tests = set().union(*_tests_by_status(passing).values())
    assert summary["recorded"] == 0 and sorted(summary["unmatched"]) == sorted(tests)
    count, _, _ = driver.execute_query("MATCH (r:QualityResult) RETURN count(r) AS n")
    assert count[0]["n"] == 0


def _without_rule(manifest: dict[str, Any]) -> set[str]:
    """Tests that depend on no node: they test literal values, no asset, so no rule."""
    return {
        uid
        for uid, node in manifest["nodes"].items()
        if node["resource_type"] == "test" and not node["depends_on"]["nodes"]
    }


@pytest.mark.parametrize(
    ("manifest", "run_results"),
    [
        *((manifest_path(s), run_results_path(s)) for s in SCHEMAS),
        pytest.param(
            public("gen_jaffle_shop_v12_dbt1.8.10_duckdb.json"),
            public("run_results_jaffle_shop_dbt1.8.10.json"),
            marks=public_manifests,
        ),
    ],
    ids=lambda path: path.name,
)
def test_a_real_build_records_every_test(
    writer: httpx.Client, manifest: Path, run_results: Path
) -> None:
    """Each dbt release's `dbt build` (run-results schema v4 to v6) against the manifest of
    the same project and release."""
    _ingest_manifest(writer, manifest)
    run = _load(run_results)
    response = _post(writer, "/quality/results/dbt", run)
    assert response.status_code == 200, response.text
    tests = set().union(*_tests_by_status(run).values())
    without_rule = _without_rule(_load(manifest)) & tests
    assert response.json()["recorded"] == len(tests - without_rule)
    assert response.json()["unmatched"] == sorted(without_rule)
    assert response.json()["failed"] == []


def test_gzip_and_multipart_uploads(writer: httpx.Client) -> None:
    _ingest_manifest(writer, HERE / "manifest.json")
    raw = (HERE / "run_results_passing.json").read_bytes()
    zipped = writer.post(
        "/quality/results/dbt",
        content=gzip.compress(raw),
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert zipped.status_code == 200, zipped.text
    again = writer.post("/quality/results/dbt", files={"file": ("run_results.json", raw)})
    assert again.status_code == 200, again.text
    assert again.json()["duplicates"] == zipped.json()["recorded"] > 0


def _with(document: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(document))
    target: Any = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copy


PASSING = _load(HERE / "run_results_passing.json")
FIRST_TEST = next(i for i, r in enumerate(PASSING["results"]) if r["unique_id"].startswith("test."))


@pytest.mark.parametrize(
    ("document", "loc"),
    [
        (
            _with(
                PASSING,
                ["metadata", "dbt_schema_version"],
                "https://schemas.getdbt.com/dbt/run-results/v3.json",
            ),
            ["body", "metadata", "dbt_schema_version"],
        ),
        (
            _with(
                PASSING,
                ["metadata", "dbt_schema_version"],
                "https://schemas.getdbt.com/dbt/manifest/v12.json",
            ),
            ["body", "metadata", "dbt_schema_version"],
        ),
        (_with(PASSING, ["results"], {"a": 1}), ["body", "results"]),
        (
            _with(PASSING, ["results", FIRST_TEST, "status"], "exploded"),
            ["body", "results", FIRST_TEST, "status"],
        ),
        (
            _with(PASSING, ["results", FIRST_TEST, "unique_id"], None),
            ["body", "results", FIRST_TEST, "unique_id"],
        ),
        (
            _with(PASSING, ["results", FIRST_TEST, "failures"], "3"),
            ["body", "results", FIRST_TEST, "failures"],
        ),
        (
            _with(PASSING, ["results", FIRST_TEST, "timing"], "soon"),
            ["body", "results", FIRST_TEST, "timing"],
        ),
        ([1, 2], ["body"]),
    ],
)
def test_invalid_run_results_are_422_naming_the_field_and_record_nothing(
    writer: httpx.Client, document: Any, loc: list[Any]
) -> None:
    _ingest_manifest(writer, HERE / "manifest.json")
    response = _post(writer, "/quality/results/dbt", document)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_run_results"
    assert loc in [e["loc"] for e in response.json()["errors"]]
    assert {r["status"] for r in _rules(writer).values()} == {"unknown"}


def test_not_json_is_422_and_wrong_media_type_415(writer: httpx.Client) -> None:
    response = writer.post(
        "/quality/results/dbt", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422 and response.json()["code"] == "invalid_run_results"
    text = writer.post(
        "/quality/results/dbt", content=b"{}", headers={"Content-Type": "text/plain"}
    )
    assert text.status_code == 415


def test_a_manifest_upload_keeps_the_rules_result_state(writer: httpx.Client) -> None:
    _ingest_manifest(writer, HERE / "manifest.json")
    failed = _record(writer, "run_results_failing.json")["failed"]
    manifest = _load(HERE / "manifest.json")
    manifest["metadata"]["generated_at"] = "2030-01-01T00:00:00Z"  # a newer parse, same rules
    assert _post(writer, "/lineage/manifest", manifest).status_code == 200
    rule = writer.get(f"/quality/rules/{failed[0]}").json()
    assert rule["status"] == "failing" and rule["last_result"]["status"] == "fail"
    again = writer.post(f"/quality/rules/{failed[0]}/results", json={"status": "fail"})
    assert again.status_code == 201
    assert len(_alerts(writer)) == len(failed)  # still failing: not announced twice
    stale = writer.post(
        f"/quality/rules/{failed[0]}/results",
        json={"status": "pass", "run_at": "2000-01-01T00:00:00Z"},
    )
    assert stale.status_code == 201
    assert writer.get(f"/quality/rules/{failed[0]}").json()["status"] == "failing"
