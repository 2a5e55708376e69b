"""CONTRACT §3/§4: column lineage derived from the compiled SQL of real dbt manifests
(jaffle_shop, built by dbt on DuckDB), walked through the column endpoints; pruned
on re-upload like edges; what cannot be traced is a warning, never a failure."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import neo4j

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "dbt"
CLASSIC = "gen_jaffle_shop_v12_dbt1.8.10_duckdb.json"
NEW = "gen_jaffle_shop_new_v12_dbt1.11.16_duckdb.json"


def load(name: str) -> dict[str, Any]:
    raw = (FIXTURES / name).read_bytes()
    return dict(json.loads(gzip.decompress(raw) if name.endswith(".gz") else raw))


def upload(client: httpx.Client, manifest: Any) -> dict[str, Any]:
    response = client.post(
        "/lineage/manifest",
        content=json.dumps(manifest),
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


def test_classic_jaffle_shop_columns_trace_back_to_the_raw_seeds(writer: httpx.Client) -> None:
    summary = upload(writer, load(CLASSIC))
    columns = summary["column_lineage"]
    assert columns["nodes"] == 5 and columns["skipped"] == 0
    assert columns["unresolved_columns"] == 0 and columns["warnings"] == []
    assert columns["edges"]["created"] > 20 and columns["edges"]["removed"] == 0

    orders = upstream(writer, "model.jaffle_shop.orders", "customer_id")
    assert orders[("model.jaffle_shop.stg_orders", "customer_id")] == 1
    assert orders[("seed.jaffle_shop.raw_orders", "user_id")] == 2
    assert len(orders) == 3  # the root and one column per hop: nothing guessed

    customers = upstream(writer, "model.jaffle_shop.customers", "customer_id")
    assert customers[("seed.jaffle_shop.raw_customers", "id")] == 2

    value = writer.get(
        "/lineage/model.jaffle_shop.customers/columns/customer_lifetime_value/upstream"
    ).json()
    assert {
        (e["source"]["asset"], e["source"]["column"], e["transformation"]) for e in value["edges"]
    } == {
        ("model.jaffle_shop.stg_payments", "amount", "SUM(payments.amount)"),
        ("seed.jaffle_shop.raw_payments", "amount", "source.amount / 100"),
    }
    down = writer.get("/lineage/seed.jaffle_shop.raw_orders/columns/user_id/downstream").json()
    assert {(n["asset"], n["column"]) for n in down["nodes"]} == {
        ("seed.jaffle_shop.raw_orders", "user_id"),
        ("model.jaffle_shop.stg_orders", "customer_id"),
        ("model.jaffle_shop.orders", "customer_id"),
    }
    edge = writer.get(
        "/lineage/edges",
        params={"source": "model.jaffle_shop.stg_orders", "target": "model.jaffle_shop.orders"},
    ).json()["items"][0]
    assert {"source": "customer_id", "target": "customer_id"} in [
        {"source": c["source"], "target": c["target"]} for c in edge["columns"]
    ]
    assert all(c["origins"] == ["dbt:jaffle_shop"] for c in edge["columns"])


def test_new_jaffle_shop_columns_trace_back_to_the_raw_sources(writer: httpx.Client) -> None:
    summary = upload(writer, load(NEW))
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
    manifest = load(CLASSIC)
    first = upload(writer, manifest)["column_lineage"]["edges"]
    mappings = driver.execute_query("MATCH ()-[r:COLUMN_LINEAGE]->() RETURN count(r)").records[0][0]
    assert mappings == first["created"]
    second = upload(writer, manifest)["column_lineage"]["edges"]
    assert second == {"created": 0, "existing": first["created"], "removed": 0}
    events = writer.get("/events", params={"types": "lineage.manifest.ingested"}).json()["items"]
    assert len(events) == 1
    assert events[0]["data"]["column_lineage"]["edges"] == first


def test_prune_removes_dropped_column_lineage_but_keeps_what_others_assert(
    writer: httpx.Client,
) -> None:
    manifest = load(CLASSIC)
    upload(writer, manifest)
    kept = writer.post(
        "/lineage",
        json={
            "source": "seed.jaffle_shop.raw_orders",
            "target": "model.jaffle_shop.stg_orders",
            "columns": [{"source": "status", "target": "status"}],
        },
    )
    assert kept.status_code == 200
    changed = copy.deepcopy(manifest)
    stg = changed["nodes"]["model.jaffle_shop.stg_orders"]
    stg["compiled_code"] = stg["compiled_code"].replace(",\n        status\n", "\n")
    orders = changed["nodes"]["model.jaffle_shop.orders"]
    orders["compiled_code"] = orders["compiled_code"].replace("orders.status,", "")
    summary = upload(writer, changed)["column_lineage"]
    # stg_orders.status -> orders.status left the graph; raw_orders.status ->
    # stg_orders.status lives on, asserted by the API too
    assert summary["edges"]["removed"] == 1 and summary["warnings"] == []
    status = writer.get("/lineage/model.jaffle_shop.stg_orders/columns/status/upstream").json()
    assert status["edges"][0]["source"] == {
        "asset": "seed.jaffle_shop.raw_orders",
        "column": "status",
    }
    edge = writer.get(
        "/lineage/edges",
        params={"source": "seed.jaffle_shop.raw_orders", "target": "model.jaffle_shop.stg_orders"},
    ).json()["items"][0]
    assert next(c for c in edge["columns"] if c["target"] == "status")["origins"] == ["api"]
    gone = writer.get("/lineage/model.jaffle_shop.orders/columns/status/upstream").json()
    assert gone["edges"] == []  # still a declared column of orders, no longer fed


def test_sql_that_cannot_be_traced_is_a_warning_not_a_failure(writer: httpx.Client) -> None:
    manifest = load(CLASSIC)
    nodes = manifest["nodes"]
    nodes["model.jaffle_shop.stg_payments"]["compiled_code"] = (
        'select from from "duck_js_18"."main"."raw_payments" where ((('
    )
    nodes["model.jaffle_shop.stg_customers"]["compiled_code"] = (
        'select * from "duck_js_18"."main"."raw_customers"'
    )
    summary = upload(writer, manifest)
    columns = summary["column_lineage"]
    assert columns["skipped"] == 1
    warnings = " | ".join(columns["warnings"])
    assert "model.jaffle_shop.stg_payments: column lineage skipped" in warnings
    assert "model.jaffle_shop.stg_customers" in warnings and "SELECT *" in warnings
    assert summary["assets"]["created"] == 8  # the rest of the manifest is ingested
    orders = upstream(writer, "model.jaffle_shop.orders", "customer_id")
    assert orders[("seed.jaffle_shop.raw_orders", "user_id")] == 2


def test_column_lineage_can_be_skipped_for_an_upload(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    response = writer.post(
        "/lineage/manifest",
        params={"column_lineage": "false"},
        content=json.dumps(load(CLASSIC)),
        headers={"content-type": "application/json"},
        timeout=300,
    )
    assert response.status_code == 200, response.text
    assert response.json()["column_lineage"]["nodes"] == 0
    assert response.json()["edges"]["created"] > 0
    mappings, _, _ = driver.execute_query("MATCH ()-[m:COLUMN_LINEAGE]->() RETURN count(m) AS n")
    assert mappings[0]["n"] == 0
