"""GET /assets/{id}/history: every change to an asset is a version, whichever path
wrote it, and a version lists what it changed."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote

import httpx
import neo4j
import pytest

from service.domain.cursor import encode_cursor
from service.graph import Graph
from service.settings import Settings
from service.store import asset_versions
from tests.support.graphs import on_a_graph

PG = "postgres://db.example.com:5432"
ORDERS: dict[str, Any] = {
    "name": "orders",
    "type": "table",
    "owners": ["ana@example.com"],
    "columns": [{"name": "id", "type": "int"}, {"name": "amount", "type": "numeric"}],
}


def history_url(asset_id: str) -> str:
    return f"/assets/{quote(asset_id, safe='')}/history"


def history(client: httpx.Client, asset_id: str, **params: Any) -> list[dict[str, Any]]:
    """Every version, newest first, following `next_cursor` page by page."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        page_params = {**params, **({"cursor": cursor} if cursor else {})}
        response = client.get(history_url(asset_id), params=page_params)
        assert response.status_code == 200, response.text
        body = response.json()
        items += body["items"]
        cursor = body["next_cursor"]
        if cursor is None:
            return items


def changed(version: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """A version's field changes as {field: (from, to)}."""
    return {c["field"]: (c["from"], c["to"]) for c in version["changes"] if c["column"] is None}


def columns(version: dict[str, Any]) -> dict[str, str]:
    """A version's column changes as {column: change}."""
    return {c["column"]: c["change"] for c in version["changes"] if c["field"] == "columns"}


def actor_of(client: httpx.Client, event_type: str) -> str:
    events = client.get("/events", params={"type": event_type}).json()["items"]
    actors = {str(e["actor"]) for e in events}
    assert len(actors) == 1, events
    return actors.pop()


def test_create_patch_put_delete_each_make_a_version_with_their_changes(
    writer: httpx.Client,
) -> None:
    assert writer.put("/assets/orders", json=ORDERS).status_code == 201
    patched = writer.patch(
        "/assets/orders",
        json={"description": "One row per order", "properties": {"tier": "gold"}},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert patched.status_code == 200, patched.text
    columns_now = [{"name": "id", "type": "bigint"}, {"name": "placed_at", "type": "timestamp"}]
    replaced = {**ORDERS, "description": "One row per order", "columns": columns_now}
    replaced["properties"] = {"tier": "silver"}
    assert writer.put("/assets/orders", json=replaced).status_code == 200
    deleting = writer.delete("/assets/orders")
    assert deleting.status_code == 204, deleting.text

    deleted, put, patch, created = history(writer, "orders")
    assert [v["version"] for v in (deleted, put, patch, created)] == [4, 3, 2, 1]
    assert [v["deleted"] for v in (deleted, put, patch, created)] == [True, False, False, False]
    assert changed(created) == {
        "placeholder": (None, False),
        "name": (None, "orders"),
        "type": (None, "table"),
        "owners": (None, ["ana@example.com"]),
    }
    assert columns(created) == {"id": "added", "amount": "added"}
    assert changed(patch) == {
        "description": (None, "One row per order"),
        "properties.tier": (None, "gold"),
    }
    assert columns(patch) == {}
    assert changed(put) == {"properties.tier": ("gold", "silver")}
    assert columns(put) == {"id": "retyped", "placed_at": "added", "amount": "removed"}
    retyped = next(c for c in put["changes"] if c["column"] == "id")
    assert (retyped["from"]["type"], retyped["to"]["type"]) == ("int", "bigint")
    assert deleted["changes"] == [
        {"field": "deleted", "column": None, "change": "set", "from": False, "to": True}
    ]
    actor = actor_of(writer, "asset.created")
    assert actor.startswith("token:")
    assert {v["actor"] for v in (deleted, put, patch, created)} == {actor}
    times = [v["at"] for v in (deleted, put, patch, created)]
    assert times == sorted(times, reverse=True) and all(t.endswith("Z") for t in times)


def test_writes_that_change_nothing_add_no_version(writer: httpx.Client) -> None:
    writer.put("/assets/orders", json=ORDERS)
    writer.put("/assets/orders", json=ORDERS)
    writer.patch(
        "/assets/orders",
        json={"name": "orders"},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert [v["version"] for v in history(writer, "orders")] == [1]


def test_a_deleted_asset_s_history_stays_readable_and_a_new_one_continues_it(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    writer.put("/assets/orders", json=ORDERS)
    writer.delete("/assets/orders")
    assert writer.get("/assets/orders").status_code == 404
    gone = history(reader, "orders")
    assert [(v["version"], v["deleted"]) for v in gone] == [(2, True), (1, False)]

    writer.put("/assets/orders", json={**ORDERS, "name": "orders_v2"})
    again = history(reader, "orders")
    assert [(v["version"], v["deleted"]) for v in again] == [(3, False), (2, True), (1, False)]
    assert changed(again[0]) == {"deleted": (True, False), "name": ("orders", "orders_v2")}


def test_concurrent_writes_each_get_their_own_version_number(writer: httpx.Client) -> None:
    writer.put("/assets/orders", json=ORDERS)

    def patch(n: int) -> int:
        return writer.patch(
            "/assets/orders",
            json={"description": f"writer {n}"},
            headers={"content-type": "application/merge-patch+json"},
        ).status_code

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert set(pool.map(patch, range(8))) == {200}
    found = history(writer, "orders")
    assert [v["version"] for v in found] == list(range(9, 0, -1))
    # each version's `from` is the description the one before it wrote
    descriptions = [changed(v)["description"] for v in reversed(found[:-1])]
    assert [d[0] for d in descriptions[1:]] == [d[1] for d in descriptions[:-1]]


def test_an_id_that_never_named_an_asset_is_404(reader: httpx.Client) -> None:
    response = reader.get(history_url("never/was"))
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "asset_not_found"


def test_pages_follow_the_cursor_newest_first_and_agree_with_one_page(
    writer: httpx.Client,
) -> None:
    writer.put("/assets/orders", json=ORDERS)
    for n in range(6):
        writer.patch(
            "/assets/orders",
            json={"description": f"revision {n}"},
            headers={"content-type": "application/merge-patch+json"},
        )
    first = writer.get(history_url("orders"), params={"limit": 3})
    assert first.status_code == 200
    assert [v["version"] for v in first.json()["items"]] == [7, 6, 5]
    assert 'rel="next"' in first.headers["link"]
    paged = history(writer, "orders", limit=3)
    whole = history(writer, "orders", limit=100)
    assert paged == whole
    assert [v["version"] for v in whole] == [7, 6, 5, 4, 3, 2, 1]
    # the last version of a page still says what it changed from the first of the next
    assert changed(paged[2]) == {"description": ("revision 2", "revision 3")}


def test_bad_paging_is_refused_and_changes_nothing(writer: httpx.Client) -> None:
    writer.put("/assets/orders", json=ORDERS)
    bad_cursor = writer.get(history_url("orders"), params={"cursor": "bm90LWpzb24"})
    assert bad_cursor.status_code == 400
    assert bad_cursor.json()["code"] == "invalid_cursor"
    for position in ("a", True, -1, 2**63):  # no version number, or none Neo4j can hold
        cursor = encode_cursor({"after": position})
        refused = writer.get(history_url("orders"), params={"cursor": cursor})
        assert refused.status_code == 400, position
        assert refused.json()["code"] == "invalid_cursor"
    too_many = writer.get(history_url("orders"), params={"limit": 0})
    assert too_many.status_code == 422
    assert [e["loc"] for e in too_many.json()["errors"]] == [["query", "limit"]]
    assert [v["version"] for v in history(writer, "orders")] == [1]


def test_a_placeholder_made_by_lineage_has_no_version_until_made_real(
    writer: httpx.Client,
) -> None:
    edge = writer.post("/lineage", json={"source": "raw.orders", "target": "orders"})
    assert edge.status_code == 201, edge.text
    assert history(writer, "raw.orders") == []

    writer.put("/assets/raw.orders", json=ORDERS)
    (real,) = history(writer, "raw.orders")
    assert real["version"] == 1
    assert changed(real)["placeholder"] == (None, False)
    assert changed(real)["name"] == (None, "orders")
    assert changed(real)["type"] == (None, "table")
    assert real["actor"] == actor_of(writer, "asset.created")
    # the edge's other end, still a placeholder, and a repeat of the edge add nothing
    writer.post("/lineage", json={"source": "raw.orders", "target": "orders"})
    assert history(writer, "orders") == []
    assert [v["version"] for v in history(writer, "raw.orders")] == [1]


def test_a_bulk_of_new_edges_writes_no_version(writer: httpx.Client, driver: neo4j.Driver) -> None:
    writer.put("/assets/orders", json=ORDERS)
    items = [{"source": f"raw.{i}", "target": "orders"} for i in range(50)]
    items += [{"source": "orders", "target": f"mart.{i}"} for i in range(50)]
    bulk = writer.post("/lineage/bulk", json=items)
    assert bulk.status_code == 200, bulk.text
    assert bulk.json()["assets_created"] == 100
    count = "MATCH (v:AssetVersion) RETURN collect(DISTINCT v.asset_id) AS ids, count(v) AS n"
    record = driver.execute_query(count).records[0]
    assert (record["ids"], record["n"]) == (["orders"], 1)


def test_a_merge_ends_the_merged_asset_s_history_and_its_former_id_reads_it(
    writer: httpx.Client,
) -> None:
    dataset = {"namespace": PG, "name": "shop.public.orders"}
    edge = writer.post("/lineage", json={"source": dataset, "target": "report"})
    assert edge.status_code == 201, edge.text
    placeholder_id = edge.json()["source"]
    created = writer.post("/assets", json={**ORDERS, "id": "orders", "dataset": dataset})
    assert created.status_code == 201, created.text

    # the placeholder had no version of its own: its former id reads the asset it names
    assert history(writer, placeholder_id) == history(writer, "orders")
    into = history(writer, "orders")
    assert len(into) == 1
    assert changed(into[0])["aliases"] == (None, [placeholder_id])
    assert changed(into[0])["dataset"] == (None, {"namespace": PG, "name": "shop.public.orders"})


def _model(name: str, cols: dict[str, str]) -> dict[str, Any]:
    unique_id = f"model.shop.{name}"
    return {
        "unique_id": unique_id,
        "resource_type": "model",
        "name": name,
        "package_name": "shop",
        "database": "analytics",
        "schema": "marts",
        "alias": name,
        "original_file_path": f"models/{name}.sql",
        "config": {"enabled": True, "materialized": "table"},
        "tags": [],
        "description": "",
        "columns": {c: {"name": c, "data_type": t, "tags": []} for c, t in cols.items()},
        "meta": {},
        "depends_on": {"nodes": [], "macros": []},
        "raw_code": "select 1",
    }


def _manifest(cols: dict[str, str]) -> dict[str, Any]:
    return {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
            "dbt_version": "1.9.0",
            "project_name": "shop",
        },
        "nodes": {"model.shop.orders": _model("orders", cols)},
        "sources": {},
        "exposures": {},
        "disabled": {},
        "macros": {},
    }


def _upload(client: httpx.Client, document: dict[str, Any]) -> None:
    response = client.post(
        "/lineage/manifest",
        content=json.dumps(document),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 200, response.text


def test_a_dbt_upload_records_columns_added_removed_and_retyped(writer: httpx.Client) -> None:
    _upload(writer, _manifest({"id": "int", "amount": "numeric"}))
    _upload(writer, _manifest({"id": "int", "amount": "numeric"}))
    _upload(writer, _manifest({"id": "bigint", "placed_at": "timestamp"}))
    second, first = history(writer, "model.shop.orders")
    assert columns(first) == {"id": "added", "amount": "added"}
    assert columns(second) == {"id": "retyped", "placed_at": "added", "amount": "removed"}
    assert changed(second) == {}
    assert second["actor"] == first["actor"]
    assert second["actor"].startswith("token:")


def _run_event(columns: list[tuple[str, str]], at: str) -> dict[str, Any]:
    return {
        "eventType": "COMPLETE",
        "eventTime": at,
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4()), "facets": {}},
        "job": {"namespace": "airflow", "name": "etl.orders", "facets": {}},
        "inputs": [{"namespace": PG, "name": "shop.public.raw_orders"}],
        "outputs": [
            {
                "namespace": PG,
                "name": "shop.public.orders",
                "facets": {"schema": {"fields": [{"name": n, "type": t} for n, t in columns]}},
            }
        ],
    }


def test_an_openlineage_schema_facet_records_its_column_changes(writer: httpx.Client) -> None:
    first = _run_event([("id", "integer"), ("amount", "numeric")], "2026-01-01T00:00:00Z")
    assert writer.post("/lineage/openlineage", json=first).status_code == 200
    assert writer.post("/lineage/openlineage", json=first).status_code == 200
    holder = writer.get(
        "/assets", params={"dataset_namespace": PG, "dataset_name": "shop.public.orders"}
    ).json()["items"][0]["id"]
    made = history(writer, holder)
    assert len(made) == 1
    assert changed(made[0])["placeholder"] == (None, True)
    assert columns(made[0]) == {"id": "added", "amount": "added"}

    later = _run_event([("id", "bigint"), ("note", "text")], "2026-01-02T00:00:00Z")
    assert writer.post("/lineage/openlineage", json=later).status_code == 200
    newest = history(writer, holder)[0]
    assert newest["version"] == 2
    assert columns(newest) == {"id": "retyped", "note": "added", "amount": "removed"}
    assert newest["actor"] == actor_of(writer, "asset.updated")


def test_the_backfill_gives_assets_from_before_history_a_first_version(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    driver.execute_query(
        "CREATE (:Asset {id: 'legacy', name: 'legacy', type: 'table', owners: ['ops'],"
        " tags: [], placeholder: false, version: 3, created_at: '2024-05-01T00:00:00.000Z',"
        " updated_at: '2025-01-01T00:00:00.000Z',"
        ' columns_json: \'[{"name":"id","type":"int"}]\'})'
    )
    assert writer.get(history_url("legacy")).json()["items"] == []

    async def backfill_twice(graph: Graph) -> tuple[int, int]:
        return await asset_versions.backfill(graph), await asset_versions.backfill(graph)

    assert on_a_graph(make_settings(), backfill_twice) == (1, 0)
    (first,) = history(writer, "legacy")
    assert (first["version"], first["actor"], first["at"]) == (
        1,
        "system",
        "2024-05-01T00:00:00.000Z",
    )
    assert changed(first)["owners"] == (None, ["ops"])
    assert columns(first) == {"id": "added"}

    patched = writer.patch(
        "/assets/legacy",
        json={"owners": ["ops", "ana"]},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert patched.status_code == 200
    assert changed(history(writer, "legacy")[0]) == {"owners": (["ops"], ["ops", "ana"])}


@pytest.mark.parametrize("asset_id", ["s3://lake/raw/events.parquet", "lake/ü/orders"])
def test_an_id_with_a_slash_reads_its_history_as_one_encoded_segment(
    writer: httpx.Client, asset_id: str
) -> None:
    created = writer.post("/assets", json={**ORDERS, "id": asset_id})
    assert created.status_code == 201, created.text
    assert [v["version"] for v in history(writer, asset_id)] == [1]
