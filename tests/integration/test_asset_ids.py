"""Ids with `/ : @ . ( ) , $ #` and non-ASCII letters round-trip through every path."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

IDS = [
    "model.jaffle_shop.orders",
    "s3://lake/raw/events.parquet",
    "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)",
    "kafka://broker:9092/topic#partition$1@v2",
    "warehouse.schéma.commandes_été",
    "表.订单",
    "a%2Fb",
    "percent%25literal",
]


@pytest.mark.parametrize("asset_id", IDS)
def test_an_id_round_trips_through_every_operation(writer: httpx.Client, asset_id: str) -> None:
    path = "/assets/" + quote(asset_id, safe="")
    created = writer.post("/assets", json={"id": asset_id, "name": "n", "type": "table"})
    assert created.status_code == 201, created.text
    assert created.headers["location"] == "/api/v1" + path
    assert writer.get(path).json()["id"] == asset_id
    assert writer.put(path, json={"name": "m", "type": "table"}).json()["id"] == asset_id
    assert writer.patch(path, json={"description": "d"}).json()["version"] == 3
    listed = writer.get("/assets").json()["items"]
    assert [a["id"] for a in listed] == [asset_id]
    assert writer.delete(path).status_code == 204
    assert writer.get(path).status_code == 404


def test_an_id_with_unencoded_slashes_still_reaches_its_asset(writer: httpx.Client) -> None:
    writer.post("/assets", json={"id": "s3://lake/raw/x", "name": "n", "type": "file"})
    response = writer.get("/assets/s3:%2F%2Flake/raw/x")
    assert response.status_code == 200 and response.json()["id"] == "s3://lake/raw/x"
