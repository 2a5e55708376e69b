"""The audit trail: every administrative action leaves exactly one `audit.*` event
naming its actor, and only admins ever see those events."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx

from tests.conftest import Tokens
from tests.support.dashboard import PASSWORD, make_user, sign_in
from tests.support.receiver import Receiver
from tests.support.server import LiveServer
from tests.support.sse import SseReader


def _last_seq(client: httpx.Client) -> int:
    seq, cursor = 0, None
    while True:
        params: dict[str, Any] = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        page = client.get("/events", params=params).json()
        seq = max([seq, *(int(e["seq"]) for e in page["items"])])
        cursor = page.get("next_cursor")
        if not cursor:
            return seq


def _audit(client: httpx.Client, after: int) -> list[dict[str, Any]]:
    response = client.get("/events", params={"after": after, "types": "audit.*", "limit": 500})
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def _actor(client: httpx.Client) -> str:
    return "token:" + str(client.get("/me").json()["token"]["id"])


def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return dict(response.json()) if response.content else {}


def test_each_admin_action_leaves_one_audit_event_naming_its_actor(
    admin: httpx.Client, writer: httpx.Client
) -> None:
    start = _last_seq(admin)
    actor = _actor(admin)
    token = _ok(admin.post("/tokens", json={"name": "t", "scopes": ["read"]}), 201)
    _ok(admin.delete(f"/tokens/{token['id']}"), 204)
    user = make_user(admin, "u", "viewer")
    _ok(admin.patch(f"/users/{user['id']}", json={"role": "editor"}))
    _ok(admin.patch(f"/users/{user['id']}", json={"password": PASSWORD + "!"}))
    _ok(admin.patch(f"/users/{user['id']}", json={"disabled": True}))
    _ok(admin.delete(f"/users/{user['id']}"), 204)
    with Receiver([(200, {})]) as receiver:
        hook = _ok(admin.post("/webhooks", json={"url": receiver.url}), 201)
        _ok(admin.patch(f"/webhooks/{hook['id']}", json={"enabled": False}))
        _ok(admin.post(f"/webhooks/{hook['id']}/test"))
        _ok(admin.delete(f"/webhooks/{hook['id']}"), 204)
    query = "MATCH (a:Asset) WHERE a.id = $id RETURN a.id AS id"
    _ok(admin.post("/query/cypher", json={"query": query, "parameters": {"id": "secret-value"}}))
    policy = _ok(writer.post("/policies", json={"name": "p", "kind": "require_owner"}), 201)
    _ok(writer.patch(f"/policies/{policy['id']}", json={"name": "q"}))
    _ok(writer.delete(f"/policies/{policy['id']}"), 204)

    events = _audit(admin, start)
    assert [e["type"] for e in events] == [
        "audit.token.created",
        "audit.token.revoked",
        "audit.user.created",
        "audit.user.updated",
        "audit.user.updated",
        "audit.user.updated",
        "audit.user.deleted",
        "audit.webhook.created",
        "audit.webhook.updated",
        "audit.webhook.tested",
        "audit.webhook.deleted",
        "audit.query.cypher",
        "audit.policy.created",
        "audit.policy.updated",
        "audit.policy.deleted",
    ]
    writer_actor = _actor(writer)
    assert [e["actor"] for e in events] == [actor] * 12 + [writer_actor] * 3
    data = [e["data"] for e in events]
    assert data[0]["id"] == data[1]["id"] == token["id"] and data[0]["scopes"] == ["read"]
    assert data[2] == {"id": user["id"], "username": "u", "role": "viewer", "disabled": False}
    assert [d["changed"] for d in data[3:6]] == [["role"], ["password"], ["disabled"]]
    assert data[3]["role"] == "editor" and data[5]["disabled"] is True
    assert data[6]["id"] == user["id"]
    assert {d["id"] for d in data[7:11]} == {hook["id"]}
    assert data[8]["changed"] == ["enabled"] and data[9]["delivered"] is True
    assert data[11] == {
        "sha256": hashlib.sha256(query.encode()).hexdigest(),
        "length": len(query),
        "parameters": ["id"],
        "rows": 0,
        "truncated": False,
    }
    assert [d["name"] for d in data[12:]] == ["p", "q", "q"]
    everything = str(events)
    assert PASSWORD not in everything and "secret-value" not in everything
    assert hook["secret"] not in everything and "hash" not in everything


def test_a_change_that_fails_leaves_no_audit_event(admin: httpx.Client) -> None:
    start = _last_seq(admin)
    make_user(admin, "dup", "viewer")
    again = {"username": "DUP", "password": PASSWORD, "role": "viewer"}
    assert admin.post("/users", json=again).status_code == 409
    assert admin.delete("/users/usr_missing").status_code == 404
    assert admin.delete("/webhooks/whk_missing").status_code == 404
    assert admin.post("/query/cypher", json={"query": "CREATE (n)"}).status_code == 422
    assert [e["type"] for e in _audit(admin, start)] == ["audit.user.created"]


def test_readers_below_admin_never_see_audit_events(
    admin: httpx.Client, writer: httpx.Client, reader: httpx.Client
) -> None:
    make_user(admin, "someone", "viewer")
    writer.post("/assets", json={"id": "seen", "name": "seen", "type": "table"})
    for client in (reader, writer):
        assert _audit(client, 0) == []
        everything = client.get("/events", params={"limit": 500}).json()["items"]
        assert everything and not any(e["type"].startswith("audit.") for e in everything)
    assert [e["type"] for e in _audit(admin, 0)][-1] == "audit.user.created"


def test_the_stream_shows_audit_events_to_admins_only(
    live: LiveServer, tokens: Tokens, admin: httpx.Client, writer: httpx.Client
) -> None:
    url = live.url + "/api/v1/events/stream"
    with SseReader(url, tokens.read) as low, SseReader(url, tokens.admin) as high:
        make_user(admin, "streamed", "viewer")
        writer.post("/assets", json={"id": "after", "name": "after", "type": "table"})
        assert low.next_event().event == "asset.created"  # the audit event was skipped
        assert [f.event for f in high.events(2)] == ["audit.user.created", "asset.created"]
    # A replay from the start: the fixture's three tokens, the user and the asset. The
    # tokens belong to no user, so their `token.created` events are an admin's to see.
    replayed = {"after": "0"}
    with SseReader(url, tokens.read, params=replayed) as low:
        assert [f.event for f in low.events(1)] == ["asset.created"]
    with SseReader(url, tokens.admin, params={**replayed, "types": "audit.*"}) as high:
        seen = [f.event for f in high.events(4)]
    assert seen == ["audit.token.created"] * 3 + ["audit.user.created"]


def test_the_dashboard_event_pages_show_audit_events_to_admins_only(
    live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "boss", "admin")
    make_user(admin, "looker", "viewer")
    with sign_in(live, "looker") as viewer:
        for path in ("/events", "/"):
            page = viewer.get(path)
            assert page.status_code == 200 and "audit." not in page.text
    with sign_in(live, "boss") as boss:
        assert "audit.user.created" in boss.get("/events").text
