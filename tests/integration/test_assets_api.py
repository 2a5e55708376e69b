"""/assets: what a user may rely on when managing assets."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

ORDERS: dict[str, Any] = {
    "id": "model.shop.orders",
    "name": "orders",
    "type": "model",
    "platform": "snowflake",
    "description": "One row per order",
    "owners": ["data-team@example.com"],
    "tags": ["Finance", "PII", "finance"],
    "columns": [{"name": "order_id", "type": "number", "tags": ["PK"]}],
    "properties": {"rows": 1200, "certified": True, "schema": "analytics", "ratio": 0.5},
}


def url(asset_id: str) -> str:
    return "/assets/" + quote(asset_id, safe="")


def test_create_returns_201_location_etag_and_normalised_tags(writer: httpx.Client) -> None:
    response = writer.post("/assets", json=ORDERS)
    assert response.status_code == 201, response.text
    body = response.json()
    assert response.headers["location"] == "/api/v1/assets/model.shop.orders"
    assert response.headers["etag"] == '"1"'
    assert body["tags"] == ["finance", "pii"]
    assert body["columns"][0]["tags"] == ["pk"]
    assert body["properties"] == ORDERS["properties"]
    assert body["version"] == 1 and body["placeholder"] is False
    assert body["created_at"].endswith("Z") and len(body["created_at"]) == 24
    assert writer.get(url("model.shop.orders")).json() == body


def test_create_twice_is_409_and_changes_nothing(writer: httpx.Client) -> None:
    writer.post("/assets", json=ORDERS)
    second = writer.post("/assets", json={**ORDERS, "name": "other"})
    assert second.status_code == 409
    assert second.headers["content-type"] == "application/problem+json"
    assert second.json()["code"] == "already_exists"
    assert writer.get(url(ORDERS["id"])).json()["name"] == "orders"


def test_get_unknown_is_404_problem(reader: httpx.Client) -> None:
    response = reader.get(url("nope"))
    assert response.status_code == 404
    assert response.json()["code"] == "asset_not_found"


def test_put_creates_then_replaces_and_unchanged_put_keeps_version(writer: httpx.Client) -> None:
    body = {k: v for k, v in ORDERS.items() if k != "id"}
    created = writer.put(url(ORDERS["id"]), json=body)
    assert created.status_code == 201 and created.json()["version"] == 1
    again = writer.put(url(ORDERS["id"]), json=body)
    assert again.status_code == 200 and again.json()["version"] == 1
    replaced = writer.put(url(ORDERS["id"]), json={"name": "orders v2", "type": "table"})
    assert replaced.status_code == 200
    assert replaced.json()["version"] == 2
    assert replaced.json()["tags"] == [] and replaced.json()["properties"] == {}
    assert replaced.json()["created_at"] == created.json()["created_at"]


def test_put_with_a_different_id_in_the_body_is_422(writer: httpx.Client) -> None:
    response = writer.put(url("a"), json={"id": "b", "name": "x", "type": "table"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["body", "id"]


def test_get_edit_put_round_trip_ignores_read_only_fields(writer: httpx.Client) -> None:
    current = writer.post("/assets", json=ORDERS).json()
    current["description"] = "edited"
    response = writer.put(url(ORDERS["id"]), json=current)
    assert response.status_code == 200 and response.json()["description"] == "edited"
    assert response.json()["version"] == 2


def test_patch_is_a_json_merge_patch(writer: httpx.Client) -> None:
    writer.post("/assets", json=ORDERS)
    response = writer.patch(
        url(ORDERS["id"]),
        content=b'{"description": null, "properties": {"rows": 5, "schema": null}, "tags": ["new"]}',
        headers={"content-type": "application/merge-patch+json"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert "description" not in body or body["description"] is None
    assert body["properties"] == {"rows": 5, "certified": True, "ratio": 0.5}
    assert body["tags"] == ["new"] and body["version"] == 2


def test_patch_cannot_change_the_id_or_break_validation(writer: httpx.Client) -> None:
    writer.post("/assets", json=ORDERS)
    moved = writer.patch(url(ORDERS["id"]), json={"id": "other"})
    assert moved.status_code == 422 and moved.json()["errors"][0]["loc"] == ["body", "id"]
    nameless = writer.patch(url(ORDERS["id"]), json={"name": None})
    assert nameless.status_code == 422 and nameless.json()["errors"][0]["loc"] == ["body", "name"]
    wrong = writer.patch(url(ORDERS["id"]), json={"owners": "me"})
    assert wrong.status_code == 422
    assert writer.get(url(ORDERS["id"])).json()["version"] == 1


def test_patch_of_unknown_asset_is_404(writer: httpx.Client) -> None:
    assert writer.patch(url("ghost"), json={"name": "x"}).status_code == 404


def test_if_match_guards_put_patch_and_delete(writer: httpx.Client) -> None:
    writer.post("/assets", json=ORDERS)
    stale = {"If-Match": '"7"'}
    assert writer.patch(url(ORDERS["id"]), json={"name": "x"}, headers=stale).status_code == 412
    put = writer.put(url(ORDERS["id"]), json={"name": "x", "type": "model"}, headers=stale)
    assert put.status_code == 412
    assert writer.delete(url(ORDERS["id"]), headers=stale).status_code == 412
    assert writer.get(url(ORDERS["id"])).json()["version"] == 1
    ok = writer.patch(url(ORDERS["id"]), json={"name": "x"}, headers={"If-Match": '"1"'})
    assert ok.status_code == 200 and ok.headers["etag"] == '"2"'
    assert writer.delete(url(ORDERS["id"]), headers={"If-Match": '"2"'}).status_code == 204


def test_put_with_if_match_on_a_missing_asset_is_412_and_creates_nothing(
    writer: httpx.Client,
) -> None:
    response = writer.put(
        url("new"), json={"name": "n", "type": "table"}, headers={"If-Match": '"1"'}
    )
    assert response.status_code == 412
    assert writer.get(url("new")).status_code == 404


def test_if_none_match_answers_304(reader: httpx.Client, writer: httpx.Client) -> None:
    etag = writer.post("/assets", json=ORDERS).headers["etag"]
    assert reader.get(url(ORDERS["id"]), headers={"If-None-Match": etag}).status_code == 304


def test_delete_is_204_then_404(writer: httpx.Client) -> None:
    writer.post("/assets", json=ORDERS)
    assert writer.delete(url(ORDERS["id"])).status_code == 204
    assert writer.get(url(ORDERS["id"])).status_code == 404
    assert writer.delete(url(ORDERS["id"])).status_code == 404


def _seed(writer: httpx.Client) -> None:
    for i, (kind, platform, tags, owner) in enumerate(
        [
            ("table", "snowflake", ["pii", "finance"], "ann"),
            ("table", "postgres", ["pii"], "bob"),
            ("view", "snowflake", ["finance"], "ann"),
            ("dashboard", "looker", [], "cat"),
        ]
    ):
        response = writer.post(
            "/assets",
            json={
                "id": f"asset-{i}",
                "name": f"Name {i}",
                "type": kind,
                "platform": platform,
                "tags": tags,
                "owners": [owner],
                "description": "Daily ORDERS" if i == 2 else None,
            },
        )
        assert response.status_code == 201, response.text


def _ids(client: httpx.Client, params: Any) -> list[str]:
    response = client.get("/assets", params=params)
    assert response.status_code == 200, response.text
    return [a["id"] for a in response.json()["items"]]


def test_list_filters(writer: httpx.Client) -> None:
    _seed(writer)
    assert _ids(writer, {"type": "table"}) == ["asset-0", "asset-1"]
    assert _ids(writer, {"platform": "snowflake"}) == ["asset-0", "asset-2"]
    assert _ids(writer, [("tag", "pii"), ("tag", "finance")]) == ["asset-0"]
    assert _ids(writer, {"tag": "PII"}) == ["asset-0", "asset-1"]
    assert _ids(writer, {"owner": "ann"}) == ["asset-0", "asset-2"]
    assert _ids(writer, {"q": "orders"}) == ["asset-2"]
    assert _ids(writer, {"q": "NAME 3"}) == ["asset-3"]
    assert _ids(writer, {"placeholder": "false"}) == ["asset-0", "asset-1", "asset-2", "asset-3"]
    assert _ids(writer, {"placeholder": "true"}) == []


def test_list_pages_with_cursor_and_link_header(writer: httpx.Client) -> None:
    _seed(writer)
    first = writer.get("/assets", params={"limit": 3, "type": "table"})
    assert first.json()["next_cursor"] is None
    first = writer.get("/assets", params={"limit": 3})
    body = first.json()
    assert [a["id"] for a in body["items"]] == ["asset-0", "asset-1", "asset-2"]
    assert body["next_cursor"]
    assert 'rel="next"' in first.headers["link"] and "limit=3" in first.headers["link"]
    second = writer.get("/assets", params={"limit": 3, "cursor": body["next_cursor"]}).json()
    assert [a["id"] for a in second["items"]] == ["asset-3"]
    assert second["next_cursor"] is None


def test_list_rejects_bad_parameters(reader: httpx.Client) -> None:
    for params, name in (
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"placeholder": "perhaps"}, "placeholder"),
        ({"placeholder": ""}, "placeholder"),
        ({"limit": ""}, "limit"),
    ):
        response = reader.get("/assets", params=params)
        assert response.status_code == 422, params
        assert response.json()["errors"][0]["loc"] == ["query", name]
    garbage = reader.get("/assets", params={"cursor": "not-a-cursor!"})
    assert garbage.status_code == 400 and garbage.json()["code"] == "invalid_cursor"
