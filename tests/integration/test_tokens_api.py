"""/tokens: tokens are made, listed and revoked; the secret is shown once."""

from __future__ import annotations

import httpx
import neo4j

from service.domain.access import tokens as token_format
from tests.support.server import LiveServer
from tests.support.waiting import eventually


def test_create_shows_the_secret_once_and_stores_only_its_hash(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    response = admin.post(
        "/tokens", json={"name": "ci", "scopes": ["write"], "expires_in_days": 30}
    )
    assert response.status_code == 201, response.text
    made = response.json()
    assert token_format.is_well_formed(made["token"])
    assert made["id"].startswith("tok_") and made["prefix"] == made["token"][:8]
    assert made["scopes"] == ["write"] and made["expires_at"] > made["created_at"]
    assert response.headers["cache-control"] == "no-store"
    fetched = admin.get(f"/tokens/{made['id']}").json()
    assert "token" not in fetched and "hash" not in fetched
    stored = driver.execute_query(
        "MATCH (t:ApiToken {id: $id}) RETURN properties(t) AS p", id=made["id"]
    ).records[0]["p"]
    assert made["token"] not in [str(v) for v in stored.values()]
    assert stored["hash"] == token_format.digest(made["token"])


def test_list_pages_tokens_without_secrets(admin: httpx.Client) -> None:
    for i in range(3):
        admin.post("/tokens", json={"name": f"t{i}", "scopes": ["read"]})
    items, cursor, pages = [], None, 0
    while True:
        page = admin.get(
            "/tokens", params={"limit": 2, **({"cursor": cursor} if cursor else {})}
        ).json()
        assert len(page["items"]) <= 2
        items += page["items"]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    names = [t["name"] for t in items]
    assert sorted(names) == ["admin", "read", "t0", "t1", "t2", "write"] and pages == 3
    assert [t["id"] for t in items] == sorted(t["id"] for t in items)
    assert all("token" not in t and "hash" not in t for t in items)


def test_last_used_at_is_recorded(admin: httpx.Client, live: LiveServer) -> None:
    made = admin.post("/tokens", json={"name": "use", "scopes": ["read"]}).json()
    assert made["last_used_at"] is None
    url = live.url + "/api/v1/assets"
    assert httpx.get(url, headers={"Authorization": f"Bearer {made['token']}"}).status_code == 200
    # A write in the background, which the service gives its query timeout (10 s).
    eventually(
        lambda: admin.get(f"/tokens/{made['id']}").json()["last_used_at"],
        timeout=15,
        what="last_used_at recorded",
    )


def test_revoke_keeps_the_record_and_the_first_revocation_time(admin: httpx.Client) -> None:
    made = admin.post("/tokens", json={"name": "gone", "scopes": ["read"]}).json()
    assert admin.delete(f"/tokens/{made['id']}").status_code == 204
    first = admin.get(f"/tokens/{made['id']}").json()["revoked_at"]
    assert first is not None
    assert admin.delete(f"/tokens/{made['id']}").status_code == 204
    assert admin.get(f"/tokens/{made['id']}").json()["revoked_at"] == first
    assert admin.delete("/tokens/tok_unknown").status_code == 404


def test_invalid_token_requests_are_422_naming_the_field(admin: httpx.Client) -> None:
    for body, loc in (
        ({"scopes": ["read"]}, ["body", "name"]),
        ({"name": "x", "scopes": []}, ["body", "scopes"]),
        ({"name": "x", "scopes": ["root"]}, ["body", "scopes", 0]),
        ({"name": "x", "scopes": ["read"], "expires_in_days": 0}, ["body", "expires_in_days"]),
        ({"name": "x", "scopes": ["read"], "expires_in_days": "7"}, ["body", "expires_in_days"]),
    ):
        response = admin.post("/tokens", json=body)
        assert response.status_code == 422, body
        assert response.json()["errors"][0]["loc"] == loc
