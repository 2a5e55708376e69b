"""The event log: every change writes exactly one event in its own transaction;
failed changes write none; the log replays with filters."""

from __future__ import annotations

from typing import Any

import httpx
import neo4j

from tests.conftest import Tokens


def _events(client: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    response = client.get("/events", params={"limit": 500, **params})
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def _types(client: httpx.Client) -> list[str]:
    return [e["type"] for e in _events(client) if not e["type"].startswith("token.")]


def test_every_asset_change_emits_exactly_one_event(writer: httpx.Client, tokens: Tokens) -> None:
    body = {"id": "a", "name": "a", "type": "table"}
    writer.post("/assets", json=body)
    writer.put("/assets/a", json={**body, "description": "d"})
    writer.put("/assets/a", json={**body, "description": "d"})  # unchanged: no event
    writer.patch("/assets/a", json={"tags": ["x"]})
    writer.patch("/assets/a", json={"tags": ["x"]})  # unchanged: no event
    writer.put("/assets/b", json={"name": "b", "type": "view"})
    writer.delete("/assets/a")
    events = [e for e in _events(writer) if e["type"].startswith("asset.")]
    assert [e["type"] for e in events] == [
        "asset.created",
        "asset.updated",
        "asset.updated",
        "asset.created",
        "asset.deleted",
    ]
    assert events[0]["data"]["id"] == "a" and events[0]["data"]["version"] == 1
    assert events[2]["data"]["tags"] == ["x"] and events[2]["data"]["version"] == 3
    assert events[4]["data"] == {"id": "a"}
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert all(e["id"].startswith("evt_") and e["occurred_at"].endswith("Z") for e in events)
    assert all(e["actor"].startswith("token:tok_") for e in events)
    assert all("alert" not in e for e in events)


def test_lineage_changes_emit_one_event_each_and_bulk_one_summary(writer: httpx.Client) -> None:
    writer.post("/lineage", json={"source": "a", "target": "b"})
    writer.post("/lineage", json={"source": "a", "target": "b"})  # no change
    writer.post("/lineage", json={"source": "a", "target": "b", "transformation": "sql"})
    bulk = [{"source": f"s{i}", "target": "t"} for i in range(100)]
    summary = writer.post("/lineage/bulk", json=bulk).json()
    writer.post("/lineage/bulk", json=bulk)  # repeat: no change, no event
    writer.delete("/lineage/edges", params={"source": "a", "target": "b"})
    events = _events(writer, types="lineage.*")
    assert [e["type"] for e in events] == [
        "lineage.edge.created",
        "lineage.edge.updated",
        "lineage.bulk.ingested",
        "lineage.edge.deleted",
    ]
    assert events[0]["data"]["source"] == "a" and events[0]["data"]["origins"] == ["api"]
    assert events[1]["data"]["transformation"] == "sql"
    assert events[2]["data"] == summary
    assert events[3]["data"]["target"] == "b"


def test_token_events_carry_metadata_never_the_secret(admin: httpx.Client) -> None:
    made = admin.post("/tokens", json={"name": "t", "scopes": ["read"]}).json()
    admin.delete(f"/tokens/{made['id']}")
    admin.delete(f"/tokens/{made['id']}")  # already revoked: no event
    events = [e for e in _events(admin, types="token.*") if e["data"]["id"] == made["id"]]
    assert [e["type"] for e in events] == ["token.created", "token.revoked"]
    assert made["token"] not in str(events) and "hash" not in events[0]["data"]
    assert events[1]["data"]["revoked_at"]


def test_failed_changes_emit_nothing(writer: httpx.Client, driver: neo4j.Driver) -> None:
    writer.post("/assets", json={"id": "a", "name": "a", "type": "table"})
    before = _events(writer)
    assert writer.post("/assets", json={"id": "a", "name": "a", "type": "table"}).status_code == 409
    assert (
        writer.patch("/assets/a", json={"name": "x"}, headers={"If-Match": '"9"'}).status_code
        == 412
    )
    assert writer.delete("/assets/ghost").status_code == 404
    assert (
        writer.post("/lineage?strict=true", json={"source": "a", "target": "ghost"}).status_code
        == 422
    )
    assert writer.post("/lineage/bulk", json=[{"source": "a", "target": "a"}]).status_code == 422
    assert (
        writer.put(
            "/assets/n", json={"name": "n", "type": "t"}, headers={"If-Match": '"1"'}
        ).status_code
        == 412
    )
    assert _events(writer) == before
    counter = driver.execute_query("MATCH (c:EventCounter) RETURN c.value AS v").records[0]["v"]
    assert counter == before[-1]["seq"]


def test_replay_filters_and_pages(writer: httpx.Client) -> None:
    for i in range(5):
        writer.post("/assets", json={"id": f"a{i}", "name": "a", "type": "table"})
    writer.post("/lineage", json={"source": "a0", "target": "a1"})
    everything = _events(writer, types="asset.*,lineage.edge.created")
    assert len(everything) == 6
    after = _events(writer, after=everything[2]["seq"], types="asset.*")
    assert [e["data"]["id"] for e in after] == ["a3", "a4"]
    first = writer.get("/events", params={"limit": 2, "types": "asset.created"}).json()
    second = writer.get(
        "/events", params={"limit": 2, "types": "asset.created", "cursor": first["next_cursor"]}
    ).json()
    assert [e["data"]["id"] for e in first["items"] + second["items"]] == ["a0", "a1", "a2", "a3"]
    assert 'rel="next"' in writer.get("/events", params={"limit": 2}).headers["link"]


def test_bad_replay_parameters_are_422(reader: httpx.Client) -> None:
    for params, loc in (
        ({"types": "nonsense"}, "types"),
        ({"types": "nothing.*"}, "types"),
        ({"after": "-1"}, "after"),
        ({"after": "x"}, "after"),
        ({"after": ""}, "after"),
        ({"after": "²"}, "after"),  # a digit to str.isdigit, not to int()
        ({"after": str(2**63)}, "after"),  # past what Neo4j holds
        ({"after": "5" * 5000}, "after"),  # past what int() reads
        ({"limit": 0}, "limit"),
        ({"limit": ""}, "limit"),
    ):
        response = reader.get("/events", params=params)
        assert response.status_code == 422, params
        assert response.json()["errors"][0]["loc"] == ["query", loc]
    last = reader.get("/events", params={"after": str(2**63 - 1)})
    assert last.status_code == 200 and last.json()["items"] == []
