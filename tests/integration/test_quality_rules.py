"""Quality rules through their whole life, results, and the alerts
that a change of status raises exactly once."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import httpx
import neo4j
import pytest

from tests.conftest import client_for
from tests.support.server import LiveServer
from tests.support.writes import put_asset

RULE: dict[str, Any] = {
    "asset_id": "raw.orders",
    "column": "order_id",
    "name": "order_id is never null",
    "type": "not_null",
    "severity": "error",
}


def _chain(client: httpx.Client) -> None:
    """raw.orders -> stg.orders -> mart.orders -> dash.sales, mart.orders -> mart.customers."""
    put_asset(client, "raw.orders", owners=["ingest@example.com"])
    put_asset(client, "stg.orders", owners=["analytics@example.com"])
    put_asset(client, "mart.orders", owners=["analytics@example.com", "finance@example.com"])
    put_asset(client, "mart.customers")
    put_asset(client, "dash.sales", type="dashboard", owners=["bi@example.com"])
    edges = [
        ("raw.orders", "stg.orders"),
        ("stg.orders", "mart.orders"),
        ("mart.orders", "dash.sales"),
        ("mart.orders", "mart.customers"),
        ("dash.sales", "stg.orders"),  # a cycle back: the walk must still end
    ]
    response = client.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in edges])
    assert response.status_code == 200, response.text


def _events(client: httpx.Client, types: str = "quality.*") -> list[dict[str, Any]]:
    response = client.get("/events", params={"types": types, "limit": 500})
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def _create(client: httpx.Client, **overrides: Any) -> dict[str, Any]:
    response = client.post("/quality/rules", json={**RULE, **overrides})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _result(client: httpx.Client, rule_id: str, status: str, **extra: Any) -> dict[str, Any]:
    response = client.post(f"/quality/rules/{rule_id}/results", json={"status": status, **extra})
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_create_answers_201_with_location_etag_and_event(writer: httpx.Client) -> None:
    put_asset(writer, "raw.orders")
    response = writer.post("/quality/rules", json=RULE)
    assert response.status_code == 201, response.text
    rule = response.json()
    assert rule["id"].startswith("qr_") and rule["version"] == 1
    assert rule["status"] == "unknown" and rule["last_result"] is None
    assert rule["origin"] == "api" and rule["params"] == {} and rule["enabled"] is True
    assert response.headers["etag"] == '"1"'
    assert response.headers["location"] == f"/api/v1/quality/rules/{rule['id']}"
    assert writer.get(f"/quality/rules/{rule['id']}").json() == rule
    listed = writer.get("/quality/rules", params={"asset_id": "raw.orders"}).json()["items"]
    assert [r["id"] for r in listed] == [rule["id"]]
    events = _events(writer)
    assert [e["type"] for e in events] == ["quality.rule.created"]
    assert events[0]["data"] == rule


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({**RULE, "asset_id": "no.such.asset"}, ["body", "asset_id"]),
        ({**RULE, "type": "bogus"}, ["body", "type"]),
        ({**RULE, "severity": "critical"}, ["body", "severity"]),
        ({**RULE, "name": ""}, ["body", "name"]),
        ({**RULE, "surprise": 1}, ["body", "surprise"]),
        ({**RULE, "enabled": "yes"}, ["body", "enabled"]),
        ({**RULE, "type": "accepted_values"}, ["body", "params", "values"]),
        (
            {**RULE, "type": "accepted_values", "params": {"values": []}},
            ["body", "params", "values"],
        ),
        ({**RULE, "type": "relationships", "params": {}}, ["body", "params", "to"]),
        ({**RULE, "type": "range", "params": {}}, ["body", "params", "min"]),
        ({**RULE, "type": "range", "params": {"min": 5, "max": 1}}, ["body", "params", "max"]),
        ({**RULE, "type": "row_count", "params": {"min": "1"}}, ["body", "params", "min"]),
        (
            {**RULE, "type": "freshness", "params": {"max_age_hours": 0}},
            ["body", "params", "max_age_hours"],
        ),
        ({k: v for k, v in RULE.items() if k != "asset_id"}, ["body", "asset_id"]),
    ],
)
def test_invalid_rules_are_422_naming_the_field_and_write_nothing(
    writer: httpx.Client, driver: neo4j.Driver, body: dict[str, Any], loc: list[Any]
) -> None:
    put_asset(writer, "raw.orders")
    response = writer.post("/quality/rules", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert loc in [e["loc"] for e in response.json()["errors"]]
    rules, _, _ = driver.execute_query("MATCH (r:QualityRule) RETURN count(r) AS n")
    assert rules[0]["n"] == 0
    assert _events(writer) == []


def test_put_patch_delete_with_versions(writer: httpx.Client) -> None:
    put_asset(writer, "raw.orders")
    put_asset(writer, "stg.orders")
    rule = _create(writer)
    url = f"/quality/rules/{rule['id']}"
    replaced = writer.put(url, json={**rule, "severity": "warn"})
    assert replaced.status_code == 200, replaced.text
    assert replaced.json()["severity"] == "warn" and replaced.json()["version"] == 2
    same = writer.put(url, json={**rule, "severity": "warn"})
    assert same.json()["version"] == 2  # unchanged: no new version
    stale = writer.put(url, json=rule, headers={"If-Match": '"1"'})
    assert stale.status_code == 412
    moved = writer.patch(
        url,
        json={"asset_id": "stg.orders", "type": "accepted_values", "params": {"values": ["a"]}},
        headers={"If-Match": '"2"', "Content-Type": "application/merge-patch+json"},
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["asset_id"] == "stg.orders" and moved.json()["version"] == 3
    assert writer.get("/quality/rules", params={"asset_id": "raw.orders"}).json()["items"] == []
    assert writer.patch(url, json={"status": "passing"}).status_code == 422
    assert writer.patch(url, json={"asset_id": "nope"}).status_code == 422
    assert writer.patch(url, json={"params": {"values": None}}).status_code == 422
    assert writer.delete(url, headers={"If-Match": '"1"'}).status_code == 412
    assert writer.delete(url).status_code == 204
    assert writer.get(url).status_code == 404
    assert writer.put(url, json=RULE).status_code == 404
    assert writer.delete(url).status_code == 404
    types = [e["type"] for e in _events(writer)]
    assert types == [
        "quality.rule.created",
        "quality.rule.updated",
        "quality.rule.updated",
        "quality.rule.deleted",
    ]


def test_status_follows_newest_result_and_alerts_fire_once_per_transition(
    writer: httpx.Client,
) -> None:
    _chain(writer)
    rule = _create(writer)
    rid = rule["id"]
    _result(writer, rid, "pass", run_at="2026-01-01T00:00:00Z")
    _result(writer, rid, "fail", observed_value=3, message="3 nulls", run_at="2026-01-02T00:00:00Z")
    _result(writer, rid, "fail", observed_value=5, run_at="2026-01-03T00:00:00Z")
    _result(writer, rid, "error", message="warehouse down", run_at="2026-01-04T00:00:00Z")
    _result(writer, rid, "fail", observed_value=4, run_at="2026-01-05T00:00:00Z")
    current = writer.get(f"/quality/rules/{rid}").json()
    assert current["status"] == "failing"
    assert current["last_result"]["observed_value"] == 4
    assert current["version"] == 1  # results do not version the definition
    _result(writer, rid, "pass", run_at="2026-01-06T00:00:00Z")
    _result(writer, rid, "pass", run_at="2026-01-07T00:00:00Z")
    assert writer.get(f"/quality/rules/{rid}").json()["status"] == "passing"

    alerts = [e for e in _events(writer) if e.get("alert")]
    assert [e["type"] for e in alerts] == ["quality.rule.failed", "quality.rule.recovered"]
    failed = alerts[0]
    assert failed["severity"] == "error"
    assert failed["data"]["rule_id"] == rid and failed["data"]["asset_id"] == "raw.orders"
    impact = failed["data"]["impact"]
    assert impact["downstream_count"] == 4
    assert impact["downstream_ids"][:2] == ["stg.orders", "mart.orders"]  # nearest first
    assert set(impact["downstream_ids"][2:]) == {"dash.sales", "mart.customers"}
    assert impact["owners"] == ["analytics@example.com", "bi@example.com", "finance@example.com"]
    recorded = [e for e in _events(writer) if e["type"] == "quality.result.recorded"]
    assert len(recorded) == 7 and recorded[1]["data"]["result"]["observed_value"] == 3


def test_an_older_result_is_history_and_does_not_move_the_status(writer: httpx.Client) -> None:
    put_asset(writer, "raw.orders")
    rid = _create(writer)["id"]
    _result(writer, rid, "pass", run_at="2026-02-02T00:00:00Z")
    _result(writer, rid, "fail", run_at="2026-02-01T00:00:00Z")  # late arrival
    assert writer.get(f"/quality/rules/{rid}").json()["status"] == "passing"
    history = writer.get(f"/quality/rules/{rid}/results").json()["items"]
    assert [r["status"] for r in history] == ["pass", "fail"]  # newest run first
    assert [e for e in _events(writer) if e.get("alert")] == []


def test_history_pages_newest_first(writer: httpx.Client) -> None:
    put_asset(writer, "raw.orders")
    rid = _create(writer)["id"]
    for day in range(1, 8):
        _result(writer, rid, "pass", run_at=f"2026-03-0{day}T00:00:00Z", observed_value=day)
    seen: list[int] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = writer.get(f"/quality/rules/{rid}/results", params=params).json()
        seen += [r["observed_value"] for r in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [7, 6, 5, 4, 3, 2, 1]
    assert writer.get("/quality/rules/qr_nope/results").status_code == 404
    assert writer.get(f"/quality/rules/{rid}/results", params={"cursor": "x"}).status_code == 400


def test_history_is_capped_per_rule(make_settings: Any, tokens: Any) -> None:
    from service.app import create_app
    from service.settings import Limits

    server = LiveServer(create_app(make_settings(limits=Limits(quality_history=3)))).start()
    try:
        with client_for(server, tokens.write) as client:
            put_asset(client, "raw.orders")
            rid = _create(client)["id"]
            for day in range(1, 6):
                _result(client, rid, "pass", run_at=f"2026-04-0{day}T00:00:00Z", observed_value=day)
            history = client.get(f"/quality/rules/{rid}/results").json()["items"]
            assert [r["observed_value"] for r in history] == [5, 4, 3]
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"status": "passed"}, ["body", "status"]),
        ({}, ["body", "status"]),
        ({"status": "pass", "run_at": "yesterday"}, ["body", "run_at"]),
        ({"status": "pass", "message": 5}, ["body", "message"]),
        ({"status": "pass", "extra": True}, ["body", "extra"]),
    ],
)
def test_invalid_results_are_422_and_record_nothing(
    writer: httpx.Client, body: dict[str, Any], loc: list[Any]
) -> None:
    put_asset(writer, "raw.orders")
    rid = _create(writer)["id"]
    response = writer.post(f"/quality/rules/{rid}/results", json=body)
    assert response.status_code == 422, response.text
    assert loc in [e["loc"] for e in response.json()["errors"]]
    assert writer.get(f"/quality/rules/{rid}/results").json()["items"] == []


def test_result_for_an_unknown_rule_is_404(writer: httpx.Client) -> None:
    response = writer.post("/quality/rules/qr_nope/results", json={"status": "fail"})
    assert response.status_code == 404
    assert response.json()["code"] == "quality_rule_not_found"


def test_a_disabled_rule_records_results_without_alerts(writer: httpx.Client) -> None:
    put_asset(writer, "raw.orders")
    rid = _create(writer, enabled=False)["id"]
    _result(writer, rid, "fail")
    assert writer.get(f"/quality/rules/{rid}").json()["status"] == "failing"
    assert [e for e in _events(writer) if e.get("alert")] == []


def test_concurrent_failures_alert_once(writer: httpx.Client) -> None:
    put_asset(writer, "raw.orders")
    rid = _create(writer)["id"]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        codes = list(
            pool.map(
                lambda _: writer.post(f"/quality/rules/{rid}/results", json={"status": "fail"}),
                range(16),
            )
        )
    assert {c.status_code for c in codes} == {201}
    alerts = [e["type"] for e in _events(writer) if e.get("alert")]
    assert alerts == ["quality.rule.failed"]


def test_deleting_an_asset_deletes_its_rules_and_says_so(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    put_asset(writer, "raw.orders")
    first = _create(writer)
    second = _create(writer, column=None, name="has rows", type="row_count", params={"min": 1})
    _result(writer, first["id"], "fail")
    assert writer.delete("/assets/raw.orders").status_code == 204
    assert writer.get(f"/quality/rules/{first['id']}").status_code == 404
    left, _, _ = driver.execute_query(
        "MATCH (n) WHERE n:QualityRule OR n:QualityResult RETURN count(n) AS n"
    )
    assert left[0]["n"] == 0
    deleted = [e for e in _events(writer) if e["type"] == "quality.rule.deleted"]
    assert sorted(e["data"]["id"] for e in deleted) == sorted([first["id"], second["id"]])
    assert {e["data"]["reason"] for e in deleted} == {"asset_deleted"}
    gone = _events(writer, "asset.deleted")[0]["data"]
    assert gone == {
        "id": "raw.orders",
        "quality_rules_deleted": sorted([first["id"], second["id"]]),
    }


def test_rule_filters_are_checked(reader: httpx.Client) -> None:
    assert reader.get("/quality/rules", params={"status": "broken"}).status_code == 422
    assert reader.get("/quality/rules", params={"type": "bogus"}).status_code == 422


def test_reader_cannot_write_rules_or_results(reader: httpx.Client) -> None:
    assert reader.post("/quality/rules", json=RULE).status_code == 403
    assert reader.post("/quality/rules/qr_x/results", json={"status": "pass"}).status_code == 403
    assert reader.post("/quality/results/dbt", json={}).status_code == 403
