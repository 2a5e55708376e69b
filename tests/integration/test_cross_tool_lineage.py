"""One asset per physical dataset, across tools: our dbt project uploaded with a
namespace, Spark-style OpenLineage events (from the official client) writing its
source from a Kafka topic, Airflow-style events reading its marts into a BI dataset,
and one walk that crosses all of them, at table and at column level, whichever
order the tools report in."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import httpx
import neo4j
from openlineage.client.client import OpenLineageClient
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, schema_dataset
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

from tests.conftest import Tokens
from tests.support.dbt_fixtures import json_bytes, manifest_path
from tests.support.server import LiveServer

WAREHOUSE = "duckdb://warehouse"
KAFKA = "kafka://broker:9092"
BI = "superset://bi.internal"
TOPIC = f"{KAFKA}/shop.stores"
BOARD = f"{BI}/dashboards/revenue"
SOURCE = "source.corner_shop.ext.stores"
STG_STORES = "model.corner_shop.stg_stores"
ORDERS = "model.corner_shop.orders"
T0 = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def _client(live: LiveServer, token: str) -> OpenLineageClient:
    return OpenLineageClient(
        transport=HttpTransport(
            HttpConfig(url=live.url, auth=ApiKeyTokenProvider({"apiKey": token}))
        )
    )


def _fields(*names: str) -> schema_dataset.SchemaDatasetFacet:
    return schema_dataset.SchemaDatasetFacet(
        fields=[schema_dataset.SchemaDatasetFacetFields(name=n, type="varchar") for n in names]
    )


def _spark_event() -> RunEvent:
    """A Spark job writing the dbt source's table from a Kafka topic, column by column.
    The table is spelt as the engine writes it (upper case), not as dbt does."""
    lineage = column_lineage_dataset.ColumnLineageDatasetFacet(
        fields={
            "id": column_lineage_dataset.Fields(
                inputFields=[
                    column_lineage_dataset.InputField(
                        namespace=KAFKA, name="shop.stores", field="store_id"
                    )
                ]
            )
        }
    )
    return RunEvent(
        eventType=RunState.COMPLETE,
        eventTime=T0.isoformat(),
        run=Run(runId=str(uuid.uuid4())),
        job=Job(namespace="spark", name="ingest_stores"),
        inputs=[
            InputDataset(
                namespace=KAFKA, name="shop.stores", facets={"schema": _fields("store_id")}
            )
        ],
        outputs=[
            OutputDataset(
                namespace=WAREHOUSE,
                name="CORNER_SHOP.EXT.STORES",
                facets={"columnLineage": lineage},
            )
        ],
    )


def _airflow_event() -> RunEvent:
    """An Airflow task reading the orders mart into a BI dashboard's dataset."""
    lineage = column_lineage_dataset.ColumnLineageDatasetFacet(
        fields={
            "revenue": column_lineage_dataset.Fields(
                inputFields=[
                    column_lineage_dataset.InputField(
                        namespace=WAREHOUSE, name="corner_shop.main_marts.orders", field="amount"
                    )
                ]
            )
        }
    )
    return RunEvent(
        eventType=RunState.COMPLETE,
        eventTime=T0.isoformat(),
        run=Run(runId=str(uuid.uuid4())),
        job=Job(namespace="airflow", name="refresh_revenue_board"),
        inputs=[InputDataset(namespace=WAREHOUSE, name="Corner_Shop.Main_Marts.Orders")],
        outputs=[
            OutputDataset(
                namespace=BI, name="dashboards/revenue", facets={"columnLineage": lineage}
            )
        ],
    )


def _upload(client: httpx.Client, namespace: str | None = WAREHOUSE) -> dict[str, Any]:
    params = {"namespace": namespace} if namespace else {}
    answer = client.post(
        "/lineage/manifest",
        content=json_bytes(manifest_path("v12")),
        params=params,
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _emit(live: LiveServer, tokens: Tokens, *events: RunEvent) -> None:
    client = _client(live, tokens.write)
    for event in events:
        client.emit(event)
    client.close()


def _walk(reader: httpx.Client, root: str, column: str | None = None) -> dict[str, Any]:
    path = f"/lineage/{quote(root, safe='')}"
    path += f"/columns/{quote(column, safe='')}/downstream" if column else "/downstream"
    answer = reader.get(path, params={"depth": 10})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _graph(reader: httpx.Client) -> tuple[set[str], set[tuple[str, str]]]:
    walk = _walk(reader, TOPIC)
    return {n["id"] for n in walk["nodes"]}, {(e["source"], e["target"]) for e in walk["edges"]}


def test_one_walk_crosses_spark_dbt_airflow_and_bi(
    live: LiveServer, tokens: Tokens, writer: httpx.Client, reader: httpx.Client
) -> None:
    summary = _upload(writer)
    assert summary["assets"]["merged"] == 0
    _emit(live, tokens, _spark_event(), _airflow_event())

    walk = _walk(reader, TOPIC)
    reached = {n["id"]: n["distance"] for n in walk["nodes"]}
    assert reached[SOURCE] == 1 and reached[STG_STORES] == 2 and reached[BOARD] >= 4
    assert reached[ORDERS] == reached[BOARD] - 1
    # The events' spellings named the dbt nodes; no second asset was made for them.
    assert not any(i.startswith(WAREHOUSE) for i in reached)
    orders = reader.get("/assets/" + quote(ORDERS, safe="")).json()
    assert orders["dataset"] == {"namespace": WAREHOUSE, "name": "corner_shop.main_marts.orders"}
    found = reader.get(
        "/assets",
        params={
            "dataset_namespace": "DUCKDB://warehouse/",
            "dataset_name": "CORNER_SHOP.main_marts.ORDERS",
        },
    ).json()["items"]
    assert [a["id"] for a in found] == [ORDERS]

    columns = _walk(reader, TOPIC, "store_id")
    assert (SOURCE, "id") in {(n["asset"], n["column"]) for n in columns["nodes"]}
    board = reader.get(f"/lineage/{quote(BOARD, safe='')}/columns/revenue/upstream").json()
    assert (ORDERS, "amount") in {(n["asset"], n["column"]) for n in board["nodes"]}


def test_events_first_then_the_manifest_end_in_the_same_graph(
    live: LiveServer,
    tokens: Tokens,
    writer: httpx.Client,
    reader: httpx.Client,
    admin: httpx.Client,
) -> None:
    _emit(live, tokens, _spark_event(), _airflow_event())
    spark_made = f"{WAREHOUSE}/corner_shop.ext.stores"
    assert reader.get("/assets/" + quote(spark_made, safe="")).json()["placeholder"] is True

    summary = _upload(writer)
    assert summary["assets"]["merged"] == 2  # the source's table and the orders mart

    nodes, edges = _graph(reader)
    assert {SOURCE, STG_STORES, ORDERS, BOARD} <= nodes
    assert (TOPIC, SOURCE) in edges
    # The id the events made lives on as an alias of the dbt source.
    by_alias = reader.get("/assets/" + quote(spark_made, safe=""))
    assert by_alias.status_code == 200 and by_alias.json()["id"] == SOURCE
    assert spark_made in by_alias.json()["aliases"]
    assert _walk(reader, spark_made)["root"] == SOURCE
    merged = admin.get("/events", params={"types": "asset.merged"}).json()["items"]
    assert {(e["data"]["from"], e["data"]["into"]) for e in merged} == {
        (spark_made, SOURCE),
        (f"{WAREHOUSE}/corner_shop.main_marts.orders", ORDERS),
    }
    # Events reported again after the merge land on the dbt nodes, making nothing new.
    before = {a["id"] for a in reader.get("/assets", params={"limit": 500}).json()["items"]}
    _emit(live, tokens, _spark_event(), _airflow_event())
    after = {a["id"] for a in reader.get("/assets", params={"limit": 500}).json()["items"]}
    assert after == before


def test_both_orders_give_one_graph(
    live: LiveServer,
    tokens: Tokens,
    writer: httpx.Client,
    reader: httpx.Client,
    driver: neo4j.Driver,
) -> None:
    _upload(writer)
    _emit(live, tokens, _spark_event(), _airflow_event())
    forward = _graph(reader)
    driver.execute_query(
        "MATCH (n) WHERE NOT n:EventCounter AND NOT n:Lease AND NOT n:ApiToken DETACH DELETE n"
    )
    _emit(live, tokens, _spark_event(), _airflow_event())
    _upload(writer)
    assert _graph(reader) == forward


def test_a_manifest_and_events_racing_converge_to_one_asset_per_dataset(
    live: LiveServer, tokens: Tokens, writer: httpx.Client, driver: neo4j.Driver
) -> None:
    with ThreadPoolExecutor(max_workers=3) as pool:
        uploads = [pool.submit(_upload, writer), pool.submit(_upload, writer)]
        emitted = pool.submit(_emit, live, tokens, _spark_event(), _airflow_event())
        for upload in uploads:
            upload.result()
        emitted.result()
    records, _, _ = driver.execute_query(
        "MATCH (a:Asset) WHERE a.dataset_namespace = $ns "
        "RETURN a.dataset_name AS name, collect(a.id) AS ids",
        ns=WAREHOUSE,
    )
    holders = {r["name"]: r["ids"] for r in records}
    assert all(len(ids) == 1 for ids in holders.values())
    assert holders["corner_shop.ext.stores"] == [SOURCE]
    assert holders["corner_shop.main_marts.orders"] == [ORDERS]


def test_an_edge_may_name_datasets_and_an_asset_claiming_one_takes_the_placeholder_over(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    raw = {"namespace": "snowflake://acme-prod", "name": "raw.public.orders"}
    made = writer.post("/lineage", json={"source": raw, "target": "report.orders"})
    assert made.status_code == 201, made.text
    placeholder = "snowflake://acme-prod/RAW.PUBLIC.ORDERS"
    assert made.json()["source"] == placeholder
    assert reader.get("/assets/" + quote(placeholder, safe="")).json()["platform"] == "snowflake"
    again = writer.post(
        "/lineage/bulk",
        json=[
            {
                "source": {"namespace": "snowflake://ACME-prod", "name": 'RAW."PUBLIC".orders'},
                "target": "report.orders",
            }
        ],
    )
    assert again.json() == {"received": 1, "created": 0, "existing": 1, "assets_created": 0}

    claimed = writer.post(
        "/assets",
        json={
            "id": "warehouse.orders",
            "name": "orders",
            "type": "table",
            "owners": ["data-eng"],
            "dataset": raw,
        },
    )
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["aliases"] == [placeholder]
    assert claimed.json()["dataset"] == {
        "namespace": "snowflake://acme-prod",
        "name": "RAW.PUBLIC.ORDERS",
    }
    edges = reader.get("/lineage/edges", params={"target": "report.orders"}).json()["items"]
    assert [(e["source"], e["target"]) for e in edges] == [("warehouse.orders", "report.orders")]
    by_alias = reader.get("/lineage/edges", params={"source": placeholder}).json()["items"]
    assert len(by_alias) == 1

    taken = writer.post(
        "/assets", json={"id": "other.orders", "name": "orders", "type": "table", "dataset": raw}
    )
    assert taken.status_code == 409
    assert taken.json()["code"] == "dataset_taken" and taken.json()["holder"] == "warehouse.orders"
    assert reader.get("/assets/other.orders").status_code == 404
    again_alias = writer.post("/assets", json={"id": placeholder, "name": "x", "type": "table"})
    assert again_alias.status_code == 409


def test_strict_edges_refuse_datasets_nobody_holds(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    answer = writer.post(
        "/lineage",
        params={"strict": "true"},
        json={"source": {"namespace": "s3://lake", "name": "raw/events"}, "target": "x"},
    )
    assert answer.status_code == 422 and answer.json()["code"] == "unknown_assets"
    assert reader.get("/assets").json()["items"] == []


def test_bad_datasets_are_refused_at_the_field_and_write_nothing(
    live: LiveServer, writer: httpx.Client, reader: httpx.Client
) -> None:
    bad = {"namespace": "snowflake://acme prod", "name": "a.b.c"}
    edge = writer.post(
        "/lineage/bulk", json=[{"source": "a", "target": "b"}, {"source": bad, "target": "c"}]
    )
    assert edge.status_code == 422
    assert [e["loc"] for e in edge.json()["errors"]] == [["body", 1, "source", "namespace"]]
    asset = writer.post(
        "/assets",
        json={
            "id": "t",
            "name": "t",
            "type": "table",
            "dataset": {"namespace": "postgres://x", "name": "a..b"},
        },
    )
    assert asset.status_code == 422
    wrong_kind = writer.post("/lineage", json={"source": 7, "target": "b"})
    assert wrong_kind.status_code == 422
    assert {tuple(e["loc"]) for e in wrong_kind.json()["errors"]} == {("body", "source")}
    upload = writer.post(
        "/lineage/manifest",
        params={"namespace": "://"},
        content=json_bytes(manifest_path("v12")),
        headers={"Content-Type": "application/json"},
    )
    assert upload.status_code == 422 and upload.json()["errors"][0]["loc"] == ["query", "namespace"]
    listing = reader.get("/assets", params={"dataset_name": "x"})
    assert listing.status_code == 422
    assert reader.get("/assets").json()["items"] == []


def test_two_models_claiming_one_table_refuse_the_upload(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    holder = writer.post(
        "/assets",
        json={
            "id": "warehouse.orders",
            "name": "orders",
            "type": "table",
            "dataset": {"namespace": WAREHOUSE, "name": "corner_shop.main_marts.orders"},
        },
    )
    assert holder.status_code == 201
    refused = writer.post(
        "/lineage/manifest",
        params={"namespace": WAREHOUSE},
        content=json_bytes(manifest_path("v12")),
        headers={"Content-Type": "application/json"},
    )
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert body["code"] == "dataset_taken"
    assert [(c["asset"], c["holder"]) for c in body["conflicts"]] == [(ORDERS, "warehouse.orders")]
    assert [a["id"] for a in reader.get("/assets").json()["items"]] == ["warehouse.orders"]


def test_a_former_id_is_answered_on_every_path_and_parameter(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    dataset = {"namespace": "s3://lake", "name": "raw/events"}
    writer.post(
        "/lineage/bulk",
        json=[
            {
                "source": dataset,
                "target": "report.events",
                "columns": [{"source": "id", "target": "event_id"}],
            }
        ],
    )
    old = "s3://lake/raw/events"
    made = writer.post(
        "/assets", json={"id": "lake.events", "name": "events", "type": "file", "dataset": dataset}
    )
    assert made.json()["aliases"] == [old]
    quoted = quote(old, safe="")

    rule = writer.post(
        "/quality/rules",
        json={"asset_id": old, "name": "not null", "type": "not_null", "column": "id"},
    )
    assert rule.status_code == 201, rule.text
    assert rule.json()["asset_id"] == "lake.events"
    listed = reader.get("/quality/rules", params={"asset_id": old}).json()["items"]
    assert [r["id"] for r in listed] == [rule.json()["id"]]
    query = reader.post("/query", json={"start": {"ids": [old]}, "return": "nodes"}).json()
    assert [n["id"] for n in query["nodes"]] == ["lake.events"]
    path = reader.post(
        "/query", json={"path": {"from": old, "to": "report.events"}, "return": "paths"}
    ).json()
    assert path["paths"] == [["lake.events", "report.events"]]
    columns = reader.get(f"/lineage/{quoted}/columns/id/downstream").json()
    assert columns["root"] == {"asset": "lake.events", "column": "id"}
    patched = writer.patch(f"/assets/{quoted}", json={"description": "raw events"})
    assert patched.status_code == 200 and patched.json()["id"] == "lake.events"
    replaced = writer.put(
        f"/assets/{quoted}", json={"name": "events", "type": "file", "dataset": dataset}
    )
    assert replaced.status_code == 200 and replaced.json()["aliases"] == [old]
    assert (
        writer.delete(
            "/lineage/edges", params={"source": old, "target": "report.events"}
        ).status_code
        == 204
    )
    assert writer.delete(f"/assets/{quoted}").status_code == 204
    assert reader.get("/assets/lake.events").status_code == 404
    assert reader.get(f"/assets/{quoted}").status_code == 404
