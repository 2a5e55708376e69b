"""POST /lineage/sql: statements and query logs in several dialects become table and
column lineage that lands on the assets holding their tables (our dbt project's
models among them), and a statement that cannot be read fails alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from tests.support.dbt_fixtures import json_bytes, manifest_path

WAREHOUSE = "duckdb://warehouse"
ORDERS = "model.corner_shop.orders"
CUSTOMERS = "model.corner_shop.customers"
SQL = Path(__file__).resolve().parents[1] / "fixtures" / "sql"


def _upload(writer: httpx.Client) -> None:
    answer = writer.post(
        "/lineage/manifest",
        params={"namespace": WAREHOUSE},
        content=json_bytes(manifest_path("v12")),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200, answer.text


def _sql(writer: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = writer.post("/lineage/sql", json=body)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_query_log_lands_on_the_dbt_models_at_table_and_column_level(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    _upload(writer)
    log = [
        {
            "sql": "insert into reporting.revenue select customer_id, sum(amount) as revenue "
            "from corner_shop.main_marts.orders group by customer_id",
            "query_id": "q-1",
            "user": "airflow",
        },
        {"sql": "select count(*) from corner_shop.main_marts.customers", "query_id": "q-2"},
        {"sql": "create table reporting.customers_copy as select * from main_marts.customers"},
        {"sql": "insert into reporting.revenue select from where", "query_id": "q-4"},
    ]
    result = _sql(
        writer,
        dialect="duckdb",
        namespace=WAREHOUSE,
        default_database="corner_shop",
        source="warehouse-query-log",
        statements=log,
    )
    assert result["origin"] == "sql:warehouse-query-log"
    assert result["statements"] == {
        "received": 4,
        "with_lineage": 2,
        "without_lineage": 1,
        "failed": 1,
    }
    assert [(f["index"], f["query_id"]) for f in result["failures"]] == [(3, "q-4")]
    assert result["failures"][0]["message"]

    revenue = f"{WAREHOUSE}/corner_shop.reporting.revenue"
    edges = reader.get("/lineage/edges", params={"origin": "sql:warehouse-query-log"}).json()
    pairs = {(e["source"], e["target"]) for e in edges["items"]}
    copy = f"{WAREHOUSE}/corner_shop.reporting.customers_copy"
    assert pairs == {(ORDERS, revenue), (CUSTOMERS, copy)}
    column = reader.get(f"/lineage/{quote(revenue, safe='')}/columns/revenue/upstream").json()
    assert (ORDERS, "amount") in {(n["asset"], n["column"]) for n in column["nodes"]}
    # SELECT * came from the stored columns of the dbt model.
    copied = next(e for e in edges["items"] if e["target"] == copy)
    assert {c["target"] for c in copied["columns"]} >= {
        "customer_id",
        "first_order",
        "most_recent_order",
        "number_of_orders",
    }

    downstream = reader.get(f"/lineage/{quote(ORDERS, safe='')}/downstream").json()
    assert revenue in {n["id"] for n in downstream["nodes"]}
    again = _sql(
        writer,
        dialect="duckdb",
        namespace=WAREHOUSE,
        default_database="corner_shop",
        source="warehouse-query-log",
        statements=log,
    )
    assert again["edges"]["created"] == 0 and again["assets_created"] == 0


def test_tpch_query_logs_in_two_dialects(writer: httpx.Client, reader: httpx.Client) -> None:
    snowflake = _sql(
        writer,
        dialect="snowflake",
        namespace="snowflake://acme-prod",
        default_database="TPCH",
        default_schema="RAW",
        source="snowflake-history",
        sql=(SQL / "tpch_snowflake.sql").read_text(),
    )
    postgres = _sql(
        writer,
        dialect="postgres",
        namespace="postgres://warehouse.internal",
        default_database="tpch",
        default_schema="public",
        source="pg-log",
        sql=(SQL / "tpch_postgres.sql").read_text(),
    )
    total = snowflake["statements"]["received"] + postgres["statements"]["received"]
    assert total >= 50
    for result in (snowflake, postgres):
        assert result["failures"] == [], result["failures"]
        assert result["edges"]["created"] > 5 and result["column_mappings"]["created"] > 20
    lineitem = reader.get(
        "/assets",
        params={
            "dataset_namespace": "snowflake://acme-prod",
            "dataset_name": "tpch.raw.lineitem",
        },
    ).json()["items"]
    assert [a["id"] for a in lineitem] == ["snowflake://acme-prod/TPCH.RAW.LINEITEM"]
    pg = reader.get(
        "/assets", params={"dataset_namespace": "postgres://warehouse.internal:5432"}
    ).json()["items"]
    assert all(a["id"].startswith("postgres://warehouse.internal:5432/") for a in pg) and pg


def test_unreadable_requests_are_refused_whole(writer: httpx.Client, reader: httpx.Client) -> None:
    cases: list[tuple[dict[str, Any], list[Any]]] = [
        ({"dialect": "cobol", "namespace": "x://y", "sql": "select 1"}, ["body", "dialect"]),
        ({"dialect": "duckdb", "namespace": "x://y"}, ["body"]),
        (
            {
                "dialect": "duckdb",
                "namespace": "x://y",
                "sql": "select 1",
                "statements": [{"sql": "select 1"}],
            },
            ["body"],
        ),
        ({"dialect": "duckdb", "namespace": "", "sql": "select 1"}, ["body", "namespace"]),
        ({"dialect": "duckdb", "namespace": "x://y", "statements": []}, ["body", "statements"]),
    ]
    for body, loc in cases:
        answer = writer.post("/lineage/sql", json=body)
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["errors"][0]["loc"] == loc, answer.json()
    assert reader.get("/assets").json()["items"] == []
