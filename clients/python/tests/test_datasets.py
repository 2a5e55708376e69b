"""Cross-tool lineage on a scripted transport: datasets on assets and edge ends, the
dataset filters, the manifest's namespace and SQL ingestion. No network."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from scripted import Script, ok, problem

from governance_client import AsyncClient, Client, ConflictError, Dataset, SqlStatement

ORDERS: Dataset = {"namespace": "snowflake://acme-prod", "name": "ANALYTICS.PUBLIC.ORDERS"}
REVENUE = Dataset(namespace="postgres://db", name="mart.revenue")
BULK = {"received": 2, "created": 2, "existing": 0, "assets_created": 1}


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)


def sql_result(received: int, failures: list[dict[str, Any]], created: int = 1) -> dict[str, Any]:
    return {
        "origin": "sql:nightly",
        "statements": {
            "received": received,
            "with_lineage": received - len(failures),
            "without_lineage": 0,
            "failed": len(failures),
        },
        "edges": {"created": created, "existing": 0},
        "column_mappings": {"created": 2, "existing": 0},
        "assets_created": 2,
        "failures": failures,
        "warnings": [],
    }


# -- datasets on assets -----------------------------------------------------------


def test_create_and_put_send_the_dataset(make: Callable[..., Client]) -> None:
    script = Script(ok({"id": "orders"}, 201), ok({"id": "orders"}))
    client = make(script)
    client.assets.create("orders", name="Orders", type="table", dataset=ORDERS)
    client.assets.put("orders", name="Orders", type="table", dataset=REVENUE)
    assert body_of(script.requests[0]) == {
        "id": "orders",
        "name": "Orders",
        "type": "table",
        "dataset": {"namespace": "snowflake://acme-prod", "name": "ANALYTICS.PUBLIC.ORDERS"},
    }
    assert body_of(script.requests[1])["dataset"] == {
        "namespace": "postgres://db",
        "name": "mart.revenue",
    }


def test_without_a_dataset_none_is_sent(make: Callable[..., Client]) -> None:
    script = Script(ok({"id": "a"}))
    make(script).assets.put("a", name="A", type="table")
    assert "dataset" not in body_of(script.requests[0])


def test_patch_with_dataset_none_removes_it(make: Callable[..., Client]) -> None:
    script = Script(ok({"id": "a", "dataset": None}))
    make(script).assets.patch("a", {"dataset": None})
    assert body_of(script.requests[0]) == {"dataset": None}


def test_list_and_iter_filter_by_dataset(make: Callable[..., Client]) -> None:
    holder = {"id": "orders", "dataset": ORDERS, "aliases": ["snowflake://acme-prod/x"]}
    script = Script(
        ok({"items": [holder], "next_cursor": None}),
        ok({"items": [holder], "next_cursor": None}),
    )
    client = make(script)
    page = client.assets.list(
        dataset_namespace="snowflake://acme-prod", dataset_name="analytics.public.orders"
    )
    assert page["items"][0]["aliases"] == ["snowflake://acme-prod/x"]
    assert [a["id"] for a in client.assets.iter(dataset_namespace="snowflake://acme-prod")] == [
        "orders"
    ]
    assert [dict(r.url.params) for r in script.requests] == [
        {"dataset_namespace": "snowflake://acme-prod", "dataset_name": "analytics.public.orders"},
        {"dataset_namespace": "snowflake://acme-prod"},
    ]


def test_a_taken_dataset_is_a_conflict_naming_its_holder(make: Callable[..., Client]) -> None:
    script = Script(problem(409, "dataset_taken", holder="warehouse.orders", dataset=ORDERS))
    with pytest.raises(ConflictError) as caught:
        make(script).assets.create("orders", name="Orders", type="table", dataset=ORDERS)
    assert (caught.value.status, caught.value.code) == (409, "dataset_taken")
    assert caught.value.problem["holder"] == "warehouse.orders"
    assert len(script.requests) == 1  # a conflict is never retried


# -- edges by dataset -------------------------------------------------------------


def test_an_edge_end_may_be_a_dataset(make: Callable[..., Client]) -> None:
    script = Script(ok({"source": "snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS"}, 201))
    make(script).lineage.add_edge(ORDERS, "dash.revenue", "select 1", strict=True)
    request = script.requests[0]
    assert request.url.params["strict"] == "true"
    assert body_of(request) == {
        "source": {"namespace": "snowflake://acme-prod", "name": "ANALYTICS.PUBLIC.ORDERS"},
        "target": "dash.revenue",
        "transformation": "select 1",
    }


def test_bulk_edges_take_datasets_in_tuples_and_mappings(make: Callable[..., Client]) -> None:
    script = Script(ok(BULK))
    make(script).lineage.bulk(
        [
            (ORDERS, REVENUE),
            {"source": "raw.orders", "target": REVENUE, "columns": [
                {"source": "amount", "target": "revenue"}]},
        ]
    )  # fmt: skip
    assert body_of(script.requests[0]) == [
        {"source": dict(ORDERS), "target": dict(REVENUE)},
        {
            "source": "raw.orders",
            "target": dict(REVENUE),
            "columns": [{"source": "amount", "target": "revenue"}],
        },
    ]


def test_push_bulk_chunks_edges_by_dataset(make: Callable[..., Client]) -> None:
    script = Script(ok(BULK), ok({**BULK, "received": 1, "created": 1, "assets_created": 0}))

    def edges() -> Iterator[tuple[Dataset | str, Dataset | str]]:
        yield ORDERS, "a"
        yield "a", REVENUE
        yield REVENUE, "b"

    total = make(script).lineage.push_bulk(edges(), chunk_size=2)
    assert total == {"received": 3, "created": 3, "existing": 0, "assets_created": 1}
    assert [len(body_of(r)) for r in script.requests] == [2, 1]
    assert body_of(script.requests[1]) == [{"source": dict(REVENUE), "target": "b"}]


# -- dbt manifest namespace -------------------------------------------------------


def test_a_manifest_upload_takes_a_namespace(make: Callable[..., Client]) -> None:
    summary = {"project": "shop", "assets": {"created": 1, "updated": 0, "merged": 2}}
    script = Script(ok(summary))
    result = make(script).lineage.upload_manifest(
        b"{}", project="shop", namespace="snowflake://acme-prod"
    )
    assert result["assets"]["merged"] == 2
    assert dict(script.requests[0].url.params) == {
        "project": "shop",
        "namespace": "snowflake://acme-prod",
        "prune": "true",
    }


# -- SQL ingestion ----------------------------------------------------------------


def test_a_script_is_sent_as_sql(make: Callable[..., Client]) -> None:
    script = Script(ok(sql_result(2, [])))
    result = make(script).lineage.ingest_sql(
        "create table a as select * from b; insert into c select x from a",
        dialect="snowflake",
        namespace="snowflake://acme-prod",
        default_database="ANALYTICS",
        default_schema="PUBLIC",
        source="nightly",
    )
    assert result["statements"]["received"] == 2
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/lineage/sql")
    assert request.headers["idempotency-key"]
    assert body_of(request) == {
        "dialect": "snowflake",
        "namespace": "snowflake://acme-prod",
        "default_database": "ANALYTICS",
        "default_schema": "PUBLIC",
        "source": "nightly",
        "sql": "create table a as select * from b; insert into c select x from a",
    }


def test_a_query_log_is_sent_as_statements(make: Callable[..., Client]) -> None:
    script = Script(ok(sql_result(2, [])))
    entry: SqlStatement = {"sql": "select 1", "query_id": "q2", "user": None}
    make(script).lineage.ingest_sql(
        ["insert into a select * from b", entry], dialect="postgres", namespace="postgres://db"
    )
    assert body_of(script.requests[0]) == {
        "dialect": "postgres",
        "namespace": "postgres://db",
        "statements": [
            {"sql": "insert into a select * from b"},
            {"sql": "select 1", "query_id": "q2"},
        ],
    }


def test_a_long_log_is_chunked_and_failures_index_the_whole_log(
    make: Callable[..., Client],
) -> None:
    first = sql_result(2, [{"index": 1, "message": "bad", "query_id": "q1"}])
    second = sql_result(2, [{"index": 0, "message": "worse", "query_id": None}], created=0)
    third = sql_result(1, [])
    script = Script(ok(first), ok(second), ok(third))
    read: list[int] = []

    def log() -> Iterator[str]:
        for i in range(5):
            read.append(i)
            yield "insert into t select * from s"

    client = make(script)
    total = client.lineage.ingest_sql(
        log(),
        dialect="postgres",
        namespace="postgres://db",
        source="nightly",
        chunk_size=2,
        options={"idempotency_key": "log-7"},
    )
    assert [len(body_of(r)["statements"]) for r in script.requests] == [2, 2, 1]
    assert [r.headers["idempotency-key"] for r in script.requests] == [
        "log-7",
        "log-7-1",
        "log-7-2",
    ]
    assert read == [0, 1, 2, 3, 4]
    assert total["origin"] == "sql:nightly"
    assert total["statements"] == {
        "received": 5,
        "with_lineage": 3,
        "without_lineage": 0,
        "failed": 2,
    }
    assert total["edges"] == {"created": 2, "existing": 0}
    assert total["assets_created"] == 6
    assert total["failures"] == [
        {"index": 1, "message": "bad", "query_id": "q1"},
        {"index": 2, "message": "worse", "query_id": None},
    ]


def test_an_empty_log_sends_nothing(make: Callable[..., Client]) -> None:
    script = Script()
    result = make(script).lineage.ingest_sql([], dialect="postgres", namespace="postgres://db")
    assert result["statements"]["received"] == 0
    assert result["origin"] == "sql:api"
    assert script.requests == []


@pytest.mark.parametrize("size", [0, 10_001])
def test_ingest_sql_refuses_a_chunk_size_the_service_would(
    make: Callable[..., Client], size: int
) -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        make(Script()).lineage.ingest_sql(
            ["select 1"], dialect="postgres", namespace="postgres://db", chunk_size=size
        )


def test_sql_ingestion_is_retried_with_one_key(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"), ok(sql_result(1, [])))
    make(script).lineage.ingest_sql("select 1", dialect="postgres", namespace="postgres://db")
    keys = [r.headers["idempotency-key"] for r in script.requests]
    assert len(keys) == 2
    assert keys[0] == keys[1]


def test_sql_ingestion_has_a_raw_response(make: Callable[..., Client]) -> None:
    script = Script(ok(sql_result(1, [])))
    raw = make(script).with_raw_response.lineage.ingest_sql(
        "select 1", dialect="postgres", namespace="postgres://db"
    )
    assert raw.status_code == 200
    assert raw.parse()["origin"] == "sql:nightly"


@pytest.mark.anyio
async def test_the_async_client_ingests_sql_and_writes_edges_by_dataset() -> None:
    script = Script(ok(sql_result(1, [])), ok({"source": "x"}, 201))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        result = await client.lineage.ingest_sql(
            ["insert into a select * from b"], dialect="postgres", namespace="postgres://db"
        )
        assert result["edges"]["created"] == 1
        await client.lineage.add_edge("raw.orders", REVENUE)
    assert body_of(script.requests[0])["statements"] == [{"sql": "insert into a select * from b"}]
    assert body_of(script.requests[1]) == {"source": "raw.orders", "target": dict(REVENUE)}
