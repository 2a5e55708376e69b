"""Cross-tool lineage against a running service (GOVERNANCE_URL, GOVERNANCE_TOKEN with
the admin scope): assets holding datasets, edges by dataset, placeholders merged
into the asset that claims their dataset, SQL ingestion and the manifest's namespace.
Each test names its datasets under a namespace made of its unique id prefix, so the
placeholders made for them are found, and removed, by that prefix."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from governance_client import AsyncClient, Client, ConflictError, Dataset, ValidationError

MANIFEST = (
    Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "dbt_quality" / "manifest.json"
)

pytestmark = pytest.mark.live


def test_an_asset_holds_a_dataset_found_by_any_spelling(client: Client, prefix: str) -> None:
    namespace = f"snowflake://{prefix}"
    created = client.assets.create(
        f"{prefix}.orders",
        name="Orders",
        type="table",
        dataset={"namespace": namespace.upper(), "name": "analytics.public.orders"},
    )
    stored: Dataset = {"namespace": namespace, "name": "ANALYTICS.PUBLIC.ORDERS"}
    assert (created["dataset"], created["aliases"]) == (stored, [])
    client.assets.create(
        f"{prefix}.customers",
        name="Customers",
        type="table",
        dataset={"namespace": namespace, "name": "Analytics.Public.Customers"},
    )

    holder = client.assets.list(dataset_namespace=namespace, dataset_name="Analytics.public.ORDERS")
    assert [a["id"] for a in holder["items"]] == [f"{prefix}.orders"]
    assert client.assets.list(dataset_namespace=namespace, dataset_name="analytics.public.x") == {
        "items": [],
        "next_cursor": None,
    }
    in_namespace = client.assets.iter(dataset_namespace=namespace.upper(), limit=1)
    assert [a["id"] for a in in_namespace] == [f"{prefix}.customers", f"{prefix}.orders"]

    released = client.assets.patch(f"{prefix}.customers", {"dataset": None})
    assert released["dataset"] is None
    assert [a["id"] for a in client.assets.iter(dataset_namespace=namespace)] == [
        f"{prefix}.orders"
    ]

    replaced = client.assets.put(
        f"{prefix}.orders",
        name="Orders",
        type="table",
        dataset={"namespace": f"postgres://{prefix}", "name": "Raw.Orders"},
    )
    assert replaced["dataset"] == {"namespace": f"postgres://{prefix}:5432", "name": "raw.orders"}


def test_a_dataset_held_by_an_asset_is_taken(client: Client, prefix: str) -> None:
    dataset: Dataset = {"namespace": f"postgres://{prefix}", "name": "public.orders"}
    client.assets.create(f"{prefix}.first", name="First", type="table", dataset=dataset)
    with pytest.raises(ConflictError) as caught:
        client.assets.create(
            f"{prefix}.second",
            name="Second",
            type="table",
            dataset={"namespace": f"postgres://{prefix}:5432", "name": "PUBLIC.ORDERS"},
        )
    assert (caught.value.status, caught.value.code) == (409, "dataset_taken")
    assert caught.value.problem["holder"] == f"{prefix}.first"


def test_an_asset_claiming_a_dataset_takes_over_its_placeholder(
    client: Client, prefix: str
) -> None:
    source: Dataset = {"namespace": f"postgres://{prefix}", "name": "RAW.ORDERS"}
    report = f"{prefix}.report"
    edge = client.lineage.add_edge(source, report, "select * from raw.orders")
    placeholder_id = f"postgres://{prefix}:5432/raw.orders"
    assert (edge["source"], edge["target"]) == (placeholder_id, report)
    placeholder = client.assets.get(placeholder_id)
    assert placeholder["placeholder"] is True
    assert placeholder["dataset"] == {
        "namespace": f"postgres://{prefix}:5432",
        "name": "raw.orders",
    }

    orders = f"{prefix}.orders"
    claimed = client.assets.create(
        orders, name="Orders", type="table", dataset={**source, "name": "raw.orders"}
    )
    assert (claimed["id"], claimed["aliases"], claimed["placeholder"]) == (
        orders,
        [placeholder_id],
        False,
    )
    assert client.assets.get(placeholder_id)["id"] == orders  # a former id names it
    assert client.lineage.upstream(placeholder_id)["root"] == orders
    assert [e["source"] for e in client.lineage.iter_edges(target=report)] == [orders]

    merged = [
        event["data"]
        for event in client.events.iter(types="asset.merged")
        if event["data"].get("into") == orders
    ]
    assert merged == [{"from": placeholder_id, "into": orders}]


def test_bulk_edges_by_dataset_resolve_to_their_holders(client: Client, prefix: str) -> None:
    namespace = f"postgres://{prefix}"
    raw: Dataset = {"namespace": namespace, "name": "raw.orders"}
    mart: Dataset = {"namespace": namespace, "name": "mart.revenue"}
    client.assets.create(f"{prefix}.raw", name="Raw", type="table", dataset=raw)
    result = client.lineage.push_bulk(
        [(raw, mart, "insert into mart.revenue select * from raw.orders"), (mart, f"{prefix}.bi")],
        chunk_size=1,
    )
    assert (result["received"], result["created"], result["assets_created"]) == (2, 2, 2)
    mart_id = f"{namespace}:5432/mart.revenue"
    listed = list(client.lineage.iter_edges(source=f"{prefix}.raw"))
    assert [(e["source"], e["target"]) for e in listed] == [(f"{prefix}.raw", mart_id)]

    again = client.lineage.bulk([{"source": raw, "target": {**mart, "name": "MART.REVENUE"}}])
    assert (again["created"], again["existing"], again["assets_created"]) == (0, 1, 0)
    with pytest.raises(ValidationError) as unknown:
        client.lineage.add_edge(raw, {"namespace": namespace, "name": "mart.nowhere"}, strict=True)
    assert unknown.value.code == "unknown_assets"


def test_sql_is_ingested_as_lineage_with_its_failures(client: Client, prefix: str) -> None:
    namespace = f"postgres://{prefix}"
    result = client.lineage.ingest_sql(
        [
            "insert into mart.revenue select customer_id, sum(amount) as revenue "
            "from raw.orders group by 1",
            "select broken from",
        ],
        dialect="postgres",
        namespace=namespace,
    )
    assert result["origin"] == "sql:api"
    assert result["statements"] == {
        "received": 2,
        "with_lineage": 1,
        "without_lineage": 0,
        "failed": 1,
    }
    assert [f["index"] for f in result["failures"]] == [1]
    assert result["failures"][0]["message"]
    assert result["edges"] == {"created": 1, "existing": 0}
    assert result["assets_created"] == 2

    edges = list(client.lineage.iter_edges(origin="sql:api", source=f"{namespace}:5432/raw.orders"))
    assert [e["target"] for e in edges] == [f"{namespace}:5432/mart.revenue"]
    mappings = {(m["source"], m["target"]) for m in edges[0]["columns"]}
    assert ("amount", "revenue") in mappings

    script = client.lineage.ingest_sql(
        "create table mart.customers as select id, name from raw.customers; select 1",
        dialect="postgres",
        namespace=namespace,
        source="pyclient",
    )
    assert script["origin"] == "sql:pyclient"
    assert (script["statements"]["with_lineage"], script["statements"]["without_lineage"]) == (1, 1)
    assert script["edges"]["created"] == 1

    with pytest.raises(ValidationError) as unknown:
        client.lineage.ingest_sql(["select 1"], dialect="no-such-dialect", namespace=namespace)
    assert unknown.value.errors[0]["loc"] == ["body", "dialect"]


@pytest.mark.anyio
async def test_the_async_client_ingests_a_query_log(url: str, prefix: str) -> None:
    namespace = f"postgres://{prefix}"
    async with AsyncClient(base_url=url) as client:
        result = await client.lineage.ingest_sql(
            [
                {"sql": "insert into b select * from a", "query_id": "q1", "user": "etl"},
                {"sql": "select from where", "query_id": "q2"},
            ],
            dialect="postgres",
            namespace=namespace,
            default_schema="public",
            source="querylog",
        )
        assert result["failures"][0]["index"] == 1
        assert result["failures"][0]["query_id"] == "q2"
        holder = await client.assets.list(dataset_namespace=namespace, dataset_name="public.b")
        assert [a["id"] for a in holder["items"]] == [f"{namespace}:5432/public.b"]


def test_a_manifest_with_a_namespace_takes_over_placeholders(client: Client, prefix: str) -> None:
    namespace = f"duckdb://{prefix}"
    table: Dataset = {"namespace": namespace, "name": "QUALITY_SHOP.MAIN_MARTS.ORDERS"}
    dashboard = f"{prefix}.dashboard"
    placeholder_id = client.lineage.add_edge(table, dashboard)["source"]
    assert placeholder_id == f"{namespace}/quality_shop.main_marts.orders"

    project = f"py-{uuid.uuid4().hex[:8]}"
    summary = client.lineage.upload_manifest(MANIFEST, project=project, namespace=namespace)
    assert summary["project"] == project
    assert summary["assets"]["merged"] >= 1

    model = client.assets.get(placeholder_id)
    assert model["id"] == "model.quality_shop.orders"
    assert model["dataset"] == {"namespace": namespace, "name": "quality_shop.main_marts.orders"}
    assert placeholder_id in model["aliases"]
    assert [e["source"] for e in client.lineage.iter_edges(target=dashboard)] == [model["id"]]
