"""Column lineage derived from the compiled SQL of real dbt manifests (our own project,
built by dbt on DuckDB), walked through the column endpoints; pruned on re-upload like
edges; what cannot be traced is a warning, never a failure."""

from __future__ import annotations

import copy
import json
from typing import Any
from urllib.parse import quote

import httpx
import neo4j

from tests.support.dbt_fixtures import NEWEST, load, manifest, public, public_manifests

JAFFLE_NEW = "gen_jaffle_shop_new_v12_dbt1.11.16_duckdb.json"


def upload(client: httpx.Client, document: Any) -> dict[str, Any]:
    response = client.post(
        "/lineage/manifest",
        content=json.dumps(document),
        headers={"content-type": "application/json"},
        timeout=300,
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def upstream(client: httpx.Client, asset: str, column: str) -> dict[tuple[str, str], int]:
    response = client.get(
        f"/lineage/{quote(asset, safe='')}/columns/{quote(column, safe='')}/upstream",
        params={"depth": 10},
    )
    assert response.status_code == 200, response.text
    return {(n["asset"], n["column"]): n["distance"] for n in response.json()["nodes"]}


def test_columns_trace_back_to_the_raw_seeds(writer: httpx.Client) -> None:
    summary = upload(writer, manifest(NEWEST))
    columns = summary["column_lineage"]
    # 11 nodes, 51 mappings: traced by hand from the project's SQL in
    # tests/unit/test_column_sql.py
    assert columns["nodes"] == 11 and columns["skipped"] == 0
    assert columns["unresolved_columns"] == 0 and columns["warnings"] == []
    assert columns["edges"] == {"created": 51, "existing": 0, "removed": 0}

    orders = upstream(writer, "model.corner_shop.orders", "customer_id")
    assert orders[("model.corner_shop.stg_orders", "customer_id")] == 1
    assert orders[("seed.corner_shop.raw_orders", "user_id")] == 2
    assert len(orders) == 3  # the root and one column per hop: nothing guessed

    customers = upstream(writer, "model.corner_shop.customers", "customer_id")
    assert customers[("seed.corner_shop.raw_customers", "id")] == 2

    value = writer.get(
        "/lineage/model.corner_shop.customers/columns/lifetime_value/upstream"
    ).json()
    assert {
        (e["source"]["asset"], e["source"]["column"], e["transformation"]) for e in value["edges"]
    } == {
        ("model.corner_shop.stg_payments", "amount", "SUM(payments.amount)"),
        ("seed.corner_shop.raw_payments", "amount_cents", "source.amount_cents / 100.0"),
    }
    down = writer.get("/lineage/seed.corner_shop.raw_orders/columns/user_id/downstream").json()
    assert {(n["asset"], n["column"]) for n in down["nodes"]} == {
        ("seed.corner_shop.raw_orders", "user_id"),
        ("model.corner_shop.stg_orders", "customer_id"),
        ("model.corner_shop.orders", "customer_id"),
        ("snapshot.corner_shop.orders_snapshot", "customer_id"),  # select * from stg_orders
    }
    edge = writer.get(
        "/lineage/edges",
        params={"source": "model.corner_shop.stg_orders", "target": "model.corner_shop.orders"},
    ).json()["items"][0]
    assert {"source": "customer_id", "target": "customer_id"} in [
        {"source": c["source"], "target": c["target"]} for c in edge["columns"]
    ]
    assert all(c["origins"] == ["dbt:corner_shop"] for c in edge["columns"])


def test_columns_trace_back_to_the_source_tables(writer: httpx.Client) -> None:
    upload(writer, manifest(NEWEST))
    region = upstream(writer, "model.corner_shop.orders", "region")
    assert region == {
        ("model.corner_shop.orders", "region"): 0,
        ("model.corner_shop.stg_stores", "region"): 1,
        ("source.corner_shop.ext.stores", "region"): 2,
    }
    revenue = upstream(writer, "analysis.corner_shop.revenue_by_region", "revenue")
    assert revenue[("model.corner_shop.orders", "amount")] == 1
    assert revenue[("model.corner_shop.stg_payments", "amount")] == 2
    assert revenue[("seed.corner_shop.raw_payments", "amount_cents")] == 3
    latest = upstream(writer, "model.corner_shop.dim_stores.v2", "store_name")
    assert latest[("source.corner_shop.ext.stores", "name")] == 2


@public_manifests
def test_new_jaffle_shop_columns_trace_back_to_the_raw_sources(writer: httpx.Client) -> None:
    summary = upload(writer, load(public(JAFFLE_NEW)))
    assert summary["column_lineage"]["nodes"] >= 10
    customers = upstream(writer, "model.jaffle_shop.customers", "customer_id")
    assert customers[("model.jaffle_shop.stg_customers", "customer_id")] == 1
    assert customers[("source.jaffle_shop.ecom.raw_customers", "id")] == 2
    orders = upstream(writer, "model.jaffle_shop.orders", "customer_id")
    assert orders[("source.jaffle_shop.ecom.raw_orders", "customer")] == 2
    total = upstream(writer, "model.jaffle_shop.customers", "lifetime_spend")
    assert total[("model.jaffle_shop.orders", "order_total")] == 1
    assert total[("source.jaffle_shop.ecom.raw_orders", "order_total")] == 3


def test_the_same_manifest_twice_changes_no_column_lineage(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    document = manifest(NEWEST)
    first = upload(writer, document)["column_lineage"]["edges"]
    mappings = driver.execute_query("MATCH ()-[r:COLUMN_LINEAGE]->() RETURN count(r)").records[0][0]
    assert mappings == first["created"]
    second = upload(writer, document)["column_lineage"]["edges"]
    assert second == {"created": 0, "existing": first["created"], "removed": 0}
    events = writer.get("/events", params={"types": "lineage.manifest.ingested"}).json()["items"]
    assert len(events) == 1
    assert events[0]["data"]["column_lineage"]["edges"] == first


def test_prune_removes_dropped_column_lineage_but_keeps_what_others_assert(
    writer: httpx.Client,
) -> None:
    document = manifest(NEWEST)
    upload(writer, document)
    kept = writer.post(
        "/lineage",
        json={
            "source": "seed.corner_shop.raw_orders",
            "target": "model.corner_shop.stg_orders",
            "columns": [{"source": "status", "target": "status"}],
        },
    )
    assert kept.status_code == 200
    changed = copy.deepcopy(document)
    stg = changed["nodes"]["model.corner_shop.stg_orders"]
    stg["compiled_code"] = stg["compiled_code"].replace(",\n        status\n", "\n")
    orders = changed["nodes"]["model.corner_shop.orders"]
    orders["compiled_code"] = orders["compiled_code"].replace("orders.status,", "")
    summary = upload(writer, changed)["column_lineage"]
    # stg_orders.status -> orders.status and -> orders_snapshot.status (a `select *` over
    # stg_orders) left the graph; raw_orders.status -> stg_orders.status lives on,
    # asserted by the API too
    assert summary["edges"]["removed"] == 2 and summary["warnings"] == []
    status = writer.get("/lineage/model.corner_shop.stg_orders/columns/status/upstream").json()
    assert status["edges"][0]["source"] == {
        "asset": "seed.corner_shop.raw_orders",
        "column": "status",
    }
    edge = writer.get(
        "/lineage/edges",
        params={"source": "seed.corner_shop.raw_orders", "target": "model.corner_shop.stg_orders"},
    ).json()["items"][0]
    assert next(c for c in edge["columns"] if c["target"] == "status")["origins"] == ["api"]
    gone = writer.get("/lineage/model.corner_shop.orders/columns/status/upstream").json()
    assert gone["edges"] == []  # still a declared column of orders, no longer fed


def test_sql_that_cannot_be_traced_is_a_warning_not_a_failure(writer: httpx.Client) -> None:
    document = manifest(NEWEST)
    nodes = document["nodes"]
    nodes["model.corner_shop.stg_payments"]["compiled_code"] = (
        'select from from "corner_shop"."main_raw"."raw_payments" where ((('
    )
    nodes["model.corner_shop.stg_customers"]["compiled_code"] = (
        'select * from "corner_shop"."main_raw"."raw_customers"'
    )
    summary = upload(writer, document)
    columns = summary["column_lineage"]
    assert columns["skipped"] == 1
    warnings = " | ".join(columns["warnings"])
    assert "model.corner_shop.stg_payments: column lineage skipped" in warnings
    assert "model.corner_shop.stg_customers" in warnings and "SELECT *" in warnings
    assert summary["assets"]["created"] == 20  # the rest of the manifest is ingested
    orders = upstream(writer, "model.corner_shop.orders", "customer_id")
    assert orders[("seed.corner_shop.raw_orders", "user_id")] == 2


def test_column_lineage_can_be_skipped_for_an_upload(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    response = writer.post(
        "/lineage/manifest",
        params={"column_lineage": "false"},
        content=json.dumps(manifest(NEWEST)),
        headers={"content-type": "application/json"},
        timeout=300,
    )
    assert response.status_code == 200, response.text
    assert response.json()["column_lineage"]["nodes"] == 0
    assert response.json()["edges"]["created"] > 0
    mappings, _, _ = driver.execute_query("MATCH ()-[m:COLUMN_LINEAGE]->() RETURN count(m) AS n")
    assert mappings[0]["n"] == 0
