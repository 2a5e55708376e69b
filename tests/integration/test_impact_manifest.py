"""Change impact before merge: `POST /impact/manifest` compares a candidate manifest
with our dbt project as uploaded, names every breaking change, and lists who reads
what it touches downstream (an OpenLineage export job, a BI dashboard and an ML
feature set written through the API), at column level where column lineage says
which columns, with owners and path. It writes nothing."""

from __future__ import annotations

import copy
import gzip
import uuid
from typing import Any

import httpx
import neo4j
import orjson
import pytest

from tests.support.corner_shop import ANALYSIS, BOARD, ORDERS, WAREHOUSE, send
from tests.support.dbt_fixtures import manifest

EXPORTS = "s3://exports"
EXPORT = f"{EXPORTS}/orders_export"
FEATURES = "ml.churn_features"
STG_ORDERS = "model.corner_shop.stg_orders"
STG_CUSTOMERS = "model.corner_shop.stg_customers"
STG_PAYMENTS = "model.corner_shop.stg_payments"
CUSTOMERS = "model.corner_shop.customers"
SNAPSHOT = "snapshot.corner_shop.orders_snapshot"
# A manifest upload derives column lineage with sqlglot: on a busy machine it takes a while.
WEEKLY = "exposure.corner_shop.weekly_revenue"  # reads orders and customers
CHURN = "exposure.corner_shop.churn_model"  # reads customers
PAYMENT_TEST = "test.corner_shop.not_null_stg_payments_order_id.601cf57649"


def _check(client: httpx.Client, document: Any, **params: str) -> dict[str, Any]:
    answer = send(client, "/impact/manifest", document, namespace=WAREHOUSE, **params)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _export_event() -> dict[str, Any]:
    """An OpenLineage job reading stg_orders (as the warehouse names it) into an export,
    whose `order_status` column is derived from `status`."""
    field = {"namespace": WAREHOUSE, "name": "corner_shop.main_staging.stg_orders"}
    return {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-26T09:00:00Z",
        "producer": "https://example.com/airflow",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4())},
        "job": {"namespace": "airflow", "name": "export_orders"},
        "inputs": [field],
        "outputs": [
            {
                "namespace": EXPORTS,
                "name": "orders_export",
                "facets": {
                    "columnLineage": {
                        "_producer": "https://example.com/airflow",
                        "_schemaURL": "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json",
                        "fields": {"order_status": {"inputFields": [{**field, "field": "status"}]}},
                    }
                },
            }
        ],
    }


@pytest.fixture
def project(writer: httpx.Client) -> dict[str, Any]:
    """Our project uploaded, and three readers outside it, each with an owner."""
    stored = manifest("v12")
    assert send(writer, "/lineage/manifest", stored, namespace=WAREHOUSE).status_code == 200
    assert send(writer, "/lineage/openlineage", _export_event()).status_code == 200
    owned = {EXPORT: "exports@example.com", BOARD: "bi@example.com", FEATURES: "ml@example.com"}
    for asset_id, owner in owned.items():
        body = {"name": asset_id, "type": "table", "owners": [owner]}
        if asset_id == EXPORT:
            answer = writer.patch(
                f"/assets/{asset_id.replace('/', '%2F')}",
                json={"owners": [owner]},
                headers={"Content-Type": "application/merge-patch+json"},
            )
        else:
            answer = writer.put(f"/assets/{asset_id}", json=body)
        assert answer.status_code in (200, 201), answer.text
    board_edge = {
        "source": ORDERS,
        "target": BOARD,
        "columns": [
            {"source": "status", "target": "status_label"},
            {"source": "amount", "target": "revenue"},
        ],
    }
    assert writer.post("/lineage", json=board_edge).status_code == 201
    # The feature set reads customers with no column lineage: all of it, as far as we know.
    assert (
        writer.post("/lineage", json={"source": CUSTOMERS, "target": FEATURES}).status_code == 201
    )
    return stored


def _graph_size(driver: neo4j.Driver) -> tuple[int, int]:
    nodes = driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    edges = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0]["n"]
    return nodes, edges


def _impacted(report: dict[str, Any]) -> dict[tuple[str, str | None], dict[str, Any]]:
    return {(item["asset"], item["column"]): item for item in report["impacted"]}


def _kinds(report: dict[str, Any]) -> set[tuple[str, str, str | None]]:
    return {(c["kind"], c["asset"], c["column"]) for c in report["changes"]}


def test_a_removed_column_impacts_only_the_columns_derived_from_it(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    del candidate["nodes"][STG_ORDERS]["columns"]["status"]
    report = _check(reader, candidate)
    assert report["changes"] == [
        {
            "kind": "column_removed",
            "asset": STG_ORDERS,
            "column": "status",
            "from": None,
            "to": None,
            "breaking": True,
        }
    ]
    assert report["breaking"] is True
    impacted = _impacted(report)
    assert set(impacted) == {
        (ORDERS, "status"),
        (SNAPSHOT, "status"),
        (EXPORT, "order_status"),
        (BOARD, "status_label"),
        # The project's own exposure reads orders with no column lineage: all of it.
        (WEEKLY, None),
    }
    assert impacted[(WEEKLY, None)]["owners"] == ["dana.reyes@example.com"]
    assert impacted[(WEEKLY, None)]["via"] == [f"{STG_ORDERS}.status", f"{ORDERS}.status", WEEKLY]
    export = impacted[(EXPORT, "order_status")]
    assert export["owners"] == ["exports@example.com"]
    assert export["distance"] == 1
    assert export["via"] == [f"{STG_ORDERS}.status", f"{EXPORT}.order_status"]
    board = impacted[(BOARD, "status_label")]
    assert board["owners"] == ["bi@example.com"]
    assert board["distance"] == 2
    assert board["via"] == [f"{STG_ORDERS}.status", f"{ORDERS}.status", f"{BOARD}.status_label"]
    assert [item["distance"] for item in report["impacted"]] == sorted(
        item["distance"] for item in report["impacted"]
    )


def test_a_retyped_column_reaches_a_reader_without_column_lineage_as_a_whole_asset(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    candidate["nodes"][STG_CUSTOMERS]["columns"]["customer_id"]["data_type"] = "bigint"
    report = _check(reader, candidate)
    assert _kinds(report) == {("column_type_changed", STG_CUSTOMERS, "customer_id")}
    change = report["changes"][0]
    assert (change["from"], change["to"], change["breaking"]) == ("integer", "bigint", True)
    impacted = _impacted(report)
    assert set(impacted) == {
        (CUSTOMERS, "customer_id"),
        (FEATURES, None),
        (WEEKLY, None),
        (CHURN, None),
    }
    features = impacted[(FEATURES, None)]
    assert features["owners"] == ["ml@example.com"]
    assert features["distance"] == 2
    assert features["via"] == [f"{STG_CUSTOMERS}.customer_id", f"{CUSTOMERS}.customer_id", FEATURES]


def test_a_removed_model_impacts_every_reader_of_it(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    del candidate["nodes"][ORDERS]
    for unique_id in list(candidate["nodes"]):
        node = candidate["nodes"][unique_id]
        if node.get("attached_node") == ORDERS or ORDERS in node["depends_on"].get("nodes", []):
            if node["resource_type"] == "test":
                del candidate["nodes"][unique_id]
            else:
                node["depends_on"]["nodes"].remove(ORDERS)
    report = _check(reader, candidate)
    # The tests of the removed model go with it: one change, not one per test.
    assert _kinds(report) == {("model_removed", ORDERS, None)}
    impacted = _impacted(report)
    assert set(impacted) == {(BOARD, None), (ANALYSIS, None), (WEEKLY, None)}
    assert impacted[(BOARD, None)]["via"] == [ORDERS, BOARD]
    assert impacted[(BOARD, None)]["owners"] == ["bi@example.com"]


def test_a_removed_test_is_breaking_and_reaches_what_relied_on_it(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    del candidate["nodes"][PAYMENT_TEST]
    report = _check(reader, candidate)
    assert report["changes"] == [
        {
            "kind": "test_removed",
            "asset": STG_PAYMENTS,
            "column": "order_id",
            "from": PAYMENT_TEST,
            "to": None,
            "breaking": True,
        }
    ]
    assert ("model.corner_shop.order_payments", "order_id") in _impacted(report)


def test_additions_are_changes_that_break_nothing(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    columns = candidate["nodes"][STG_ORDERS]["columns"]
    columns["channel"] = {**columns["status"], "name": "channel", "data_type": "varchar"}
    new_model = copy.deepcopy(candidate["nodes"][CUSTOMERS])
    new_model.update(unique_id="model.corner_shop.loyalty", name="loyalty", alias="loyalty")
    new_model["relation_name"] = '"corner_shop"."main_marts"."loyalty"'
    candidate["nodes"]["model.corner_shop.loyalty"] = new_model
    test = copy.deepcopy(candidate["nodes"][PAYMENT_TEST])
    test.update(unique_id="test.corner_shop.not_null_stg_orders_channel.0", column_name="channel")
    test["attached_node"] = STG_ORDERS
    candidate["nodes"]["test.corner_shop.not_null_stg_orders_channel.0"] = test
    report = _check(reader, candidate)
    assert _kinds(report) == {
        ("column_added", STG_ORDERS, "channel"),
        ("model_added", "model.corner_shop.loyalty", None),
        ("test_added", STG_ORDERS, "channel"),
    }
    assert report["breaking"] is False
    assert report["impacted"] == []


def test_materialization_and_relation_changes(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    candidate["nodes"][CUSTOMERS]["config"]["materialized"] = "view"
    candidate["nodes"][ORDERS]["config"]["materialized"] = "ephemeral"
    report = _check(reader, candidate)
    found = {(c["asset"], c["from"], c["to"], c["breaking"]) for c in report["changes"]}
    assert found == {(CUSTOMERS, "table", "view", False), (ORDERS, "table", "ephemeral", True)}
    assert {c["kind"] for c in report["changes"]} == {"materialization_changed"}
    # An ephemeral model has no relation: every reader of it is impacted, not the view's.
    assert (FEATURES, None) not in _impacted(report)
    assert (BOARD, None) in _impacted(report)


def test_the_unchanged_manifest_has_no_changes(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    report = _check(reader, project)
    assert report == {
        "project": "corner_shop",
        "changes": [],
        "impacted": [],
        "breaking": False,
        "depth": report["depth"],
        "redacted": 0,
    }


def test_depth_bounds_the_walk(project: dict[str, Any], reader: httpx.Client) -> None:
    candidate = copy.deepcopy(project)
    del candidate["nodes"][STG_ORDERS]["columns"]["status"]
    report = _check(reader, candidate, depth="1")
    assert report["depth"] == 1
    assert {item["distance"] for item in report["impacted"]} == {1}
    assert (BOARD, "status_label") not in _impacted(report)
    too_deep = send(reader, "/impact/manifest", candidate, depth="51")
    assert too_deep.status_code == 422
    assert too_deep.json()["errors"][0]["loc"] == ["query", "depth"]


def test_a_check_writes_nothing(
    project: dict[str, Any], reader: httpx.Client, driver: neo4j.Driver
) -> None:
    candidate = copy.deepcopy(project)
    del candidate["nodes"][ORDERS]
    del candidate["nodes"][STG_ORDERS]["columns"]["status"]
    candidate["nodes"]["model.corner_shop.loyalty"] = {
        **candidate["nodes"][CUSTOMERS],
        "unique_id": "model.corner_shop.loyalty",
    }
    before = _graph_size(driver)
    events = reader.get("/events", params={"limit": 500}).json()["items"]
    report = _check(reader, candidate)
    assert report["breaking"] is True
    assert _graph_size(driver) == before
    assert reader.get("/events", params={"limit": 500}).json()["items"] == events


def test_gzip_and_multipart_bodies_answer_the_same(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)
    del candidate["nodes"][STG_ORDERS]["columns"]["status"]
    raw = orjson.dumps(candidate)
    expected = _check(reader, candidate)
    gzipped = reader.post(
        "/impact/manifest",
        content=gzip.compress(raw),
        params={"namespace": WAREHOUSE},
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert gzipped.json() == expected
    multipart = reader.post(
        "/impact/manifest",
        files={"file": ("manifest.json", raw, "application/json")},
        params={"namespace": WAREHOUSE},
    )
    assert multipart.json() == expected


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (b"{not json", "not JSON"),
        (b'{"metadata": {}}', "nodes"),
        (b'{"nodes": {"model.x.y": {"resource_type": "model", "depends_on": 3}}}', "depends_on"),
    ],
)
def test_a_bad_manifest_is_a_problem_naming_it(
    project: dict[str, Any], reader: httpx.Client, driver: neo4j.Driver, body: bytes, named: str
) -> None:
    before = _graph_size(driver)
    answer = reader.post(
        "/impact/manifest", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["code"] == "invalid_manifest"
    assert named in problem["detail"] + orjson.dumps(problem["errors"]).decode()
    assert _graph_size(driver) == before


def test_an_unknown_project_is_404_not_a_pass(
    project: dict[str, Any], reader: httpx.Client
) -> None:
    answer = send(reader, "/impact/manifest", project, project="corner_shoppe")
    assert answer.status_code == 404
    problem = answer.json()
    assert problem["code"] == "unknown_project"
    assert "corner_shoppe" in problem["detail"]


def test_a_project_uploaded_under_another_name_is_checked_under_it(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    stored = manifest("v12")
    assert send(writer, "/lineage/manifest", stored, project="shop").status_code == 200
    candidate = copy.deepcopy(stored)
    del candidate["nodes"][STG_ORDERS]["columns"]["status"]
    answer = send(reader, "/impact/manifest", candidate, project="shop")
    assert answer.status_code == 200, answer.text
    assert answer.json()["project"] == "shop"
    assert _kinds(answer.json()) == {("column_removed", STG_ORDERS, "status")}


def test_a_model_dropped_by_an_earlier_upload_is_not_removed_again(
    project: dict[str, Any], writer: httpx.Client, reader: httpx.Client
) -> None:
    """An upload prunes a dropped model's edges and tests but keeps its asset: the next
    check compares with what the latest upload holds, not with every asset ever made."""
    dropped = copy.deepcopy(project)
    del dropped["nodes"][SNAPSHOT]
    assert send(writer, "/lineage/manifest", dropped, namespace=WAREHOUSE).status_code == 200
    assert _check(reader, dropped)["changes"] == []
