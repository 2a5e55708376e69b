"""Events about a private domain's assets, over HTTP: the replay (`GET /events`) and the
live stream (`/events/stream`) carry them only to readers with a role in the domain (and
global admins), never a byte of the asset's id or the domain's; the stream follows a
membership change from the next event on."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import neo4j
import orjson
import pytest

from service.settings import Settings
from tests.support.dashboard import sign_in
from tests.support.private_domain import PrivateDomain, make_private_domain
from tests.support.progress import newest_event
from tests.support.server import LiveServer
from tests.support.sse import Frame, SseReader

# `vaultdom` is private (owned by team `vaultkeepers`) and holds every asset whose id
# starts with `vaultasset`; `open.raw` is in no domain. Neither secret string may reach
# an outsider.
SECRETS = ("vaultasset", "vaultdom")


@pytest.fixture
def people(admin: httpx.Client, make_settings: Callable[..., Settings]) -> PrivateDomain:
    assets = ("open.raw", "vaultasset.one", "vaultasset.two")
    return make_private_domain(admin, make_settings(), {a: f"{a} name" for a in assets})


def _private_events(admin: httpx.Client) -> None:
    """One of each kind about the private assets: an update, an edge from a public asset
    (one end hidden), an edge between two private ones, a quality rule, a private domain."""
    assert admin.patch("/assets/vaultasset.one", json={"description": "x"}).status_code == 200
    for source, target in (("open.raw", "vaultasset.one"), ("vaultasset.one", "vaultasset.two")):
        edge = admin.post("/lineage", json={"source": source, "target": target})
        assert edge.status_code == 201, edge.text
    rule = {"asset_id": "vaultasset.two", "column": "id", "name": "ids", "type": "not_null"}
    made = admin.post("/quality/rules", json=rule)
    assert made.status_code == 201, made.text
    domain = {"owner_team": "vaultkeepers", "private": True, "description": "changed"}
    assert admin.put("/domains/vaultdom", json={**domain, "rules": _rules()}).status_code == 200


def _rules() -> list[dict[str, str]]:
    return [{"kind": "namespace", "value": "vaultasset"}]


def _marker(admin: httpx.Client, text: str) -> None:
    assert admin.patch("/assets/open.raw", json={"description": text}).status_code == 200


def _raw(frame: Frame) -> bytes:
    return b"%s %s %s" % (
        str(frame.id).encode(),
        str(frame.event).encode(),
        orjson.dumps(frame.data),
    )


def test_the_replay_leaves_out_every_event_about_a_private_domain_for_an_outsider(
    admin: httpx.Client,
    people: PrivateDomain,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
) -> None:
    start = newest_event(driver)
    _private_events(admin)
    _marker(admin, "after")
    outsider = client_of(people.outsider).get("/events", params={"after": start, "limit": 500})
    assert outsider.status_code == 200
    for secret in SECRETS:
        assert secret not in outsider.text
    assert [e["type"] for e in outsider.json()["items"]] == ["asset.updated"]
    insider = client_of(people.insider).get("/events", params={"after": start, "limit": 500})
    everything = admin.get("/events", params={"after": start, "limit": 500})
    types = [e["type"] for e in everything.json()["items"]]
    assert "vaultasset.one" in insider.text and "vaultdom" in insider.text
    assert [e["type"] for e in insider.json()["items"]] == types
    assert {"lineage.edge.created", "quality.rule.created", "domain.updated"} <= set(types)


def test_a_private_domains_events_reach_only_those_with_a_role_in_it(
    admin: httpx.Client,
    people: PrivateDomain,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
) -> None:
    assert admin.put("/assets/vx.one", json={"name": "one", "type": "table"}).status_code == 201
    start = newest_event(driver)
    rules = [{"kind": "namespace", "value": "vx."}]
    body = {"owner_team": "vaultkeepers", "private": True, "rules": rules}
    assert admin.put("/domains/vaultdomtwo", json=body).status_code == 201
    public = {"owner_team": "vaultkeepers", "private": False}
    assert admin.put("/domains/publicdom", json=public).status_code == 201
    asked: dict[str, str | int] = {"after": start, "types": "domain.*"}

    def seen(client: httpx.Client) -> list[tuple[str, str]]:
        items = client.get("/events", params=asked).json()["items"]
        return [(e["type"], e["data"].get("id") or e["data"]["domain"]) for e in items]

    assert seen(client_of(people.insider)) == [
        ("domain.created", "vaultdomtwo"),
        ("domain.membership.changed", "vaultdomtwo"),
        ("domain.created", "publicdom"),
    ]
    assert admin.delete("/domains/vaultdomtwo").status_code == 204
    outsider = client_of(people.outsider).get("/events", params=asked)
    assert "vaultdom" not in outsider.text
    assert [e["data"]["id"] for e in outsider.json()["items"]] == ["publicdom"]
    # Once deleted, nobody holds a role in it: its events, the count of the assets that
    # left it among them, are left to global admins.
    assert [t for t, _ in seen(admin)] == [
        "domain.created",
        "domain.membership.changed",
        "domain.created",
        "domain.deleted",
        "domain.membership.changed",
    ]
    assert "vaultdomtwo" not in client_of(people.insider).get("/events", params=asked).text


def test_the_live_stream_sends_private_events_only_to_readers_with_a_role(
    live: LiveServer, admin: httpx.Client, people: PrivateDomain
) -> None:
    url = live.url + "/api/v1/events/stream"
    with SseReader(url, people.outsider) as outsider, SseReader(url, people.insider) as insider:
        assert outsider.status == insider.status == 200
        _private_events(admin)
        _marker(admin, "after")
        first = outsider.next_event()  # events come in order: nothing private came first
        assert first.event == "asset.updated" and first.data["data"]["id"] == "open.raw"
        assert not any(secret.encode() in _raw(first) for secret in SECRETS)
        seen = [insider.next_event() for _ in range(6)]
    assert [f.event for f in seen] == [
        "asset.updated",
        "lineage.edge.created",
        "lineage.edge.created",
        "quality.rule.created",
        "domain.updated",
        "asset.updated",
    ]
    assert seen[0].data["data"]["id"] == "vaultasset.one"


def test_the_stream_follows_a_membership_change_from_the_next_event(
    live: LiveServer, admin: httpx.Client, people: PrivateDomain
) -> None:
    url = live.url + "/api/v1/events/stream"
    with SseReader(url, people.outsider, params={"types": "asset.*"}) as stream:
        joined = admin.put(f"/teams/vaultkeepers/members/{people.outsider_id}")
        assert joined.status_code == 204
        assert admin.patch("/assets/vaultasset.one", json={"description": "1"}).status_code == 200
        assert stream.next_event().data["data"]["id"] == "vaultasset.one"
        left = admin.delete(f"/teams/vaultkeepers/members/{people.outsider_id}")
        assert left.status_code == 204
        assert admin.patch("/assets/vaultasset.one", json={"description": "2"}).status_code == 200
        _marker(admin, "after leaving")
        after = stream.next_event()
    assert after.data["data"]["id"] == "open.raw"
    assert b"vaultasset" not in _raw(after)


def test_a_public_assets_alert_names_its_private_downstream_as_stand_ins(
    admin: httpx.Client,
    people: PrivateDomain,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
) -> None:
    for source, target in (("open.raw", "vaultasset.one"), ("vaultasset.one", "vaultasset.two")):
        assert admin.post("/lineage", json={"source": source, "target": target}).status_code == 201
    rule = {"asset_id": "open.raw", "column": "id", "name": "ids", "type": "not_null"}
    made = admin.post("/quality/rules", json=rule)
    assert made.status_code == 201, made.text
    start = newest_event(driver)
    failed = admin.post(f"/quality/rules/{made.json()['id']}/results", json={"status": "fail"})
    assert failed.status_code == 201, failed.text
    asked: dict[str, str | int] = {"after": start, "types": "quality.rule.failed"}
    outsider = client_of(people.outsider).get("/events", params=asked)
    assert SECRETS[0] not in outsider.text
    (alert,) = outsider.json()["items"]
    assert alert["data"]["asset_id"] == "open.raw"
    assert alert["data"]["impact"]["downstream_count"] == 2
    assert alert["data"]["impact"]["downstream_ids"] == ["redacted:1", "redacted:2"]
    (seen,) = client_of(people.insider).get("/events", params=asked).json()["items"]
    assert seen["data"]["impact"]["downstream_ids"] == ["vaultasset.one", "vaultasset.two"]


def test_the_dashboards_events_page_leaves_them_out_for_an_outsider(
    live: LiveServer, admin: httpx.Client, people: PrivateDomain
) -> None:
    _private_events(admin)
    _marker(admin, "after")
    with sign_in(live, "outsider") as outsider:
        page = outsider.get("/events")
    assert page.status_code == 200
    assert "open.raw" in page.text
    for secret in SECRETS:
        assert secret not in page.text
    with sign_in(live, "insider") as insider:
        assert "vaultasset.one" in insider.get("/events").text
