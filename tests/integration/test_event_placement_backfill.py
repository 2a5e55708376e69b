"""Events written before events were placed carry no placement, so every reader saw
them even when their subjects sit in a private domain. The start-up backfill
`event_placement` places them as their subjects stand now: a reader without a role in
the domain no longer sees them, an admin and a member still do, and a second pass
changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import neo4j
import pytest

from service.app import create_app
from service.graph import Graph
from service.settings import Settings
from service.store import event_placement
from tests.conftest import client_for
from tests.support.graphs import on_a_graph
from tests.support.private_domain import PrivateDomain, make_private_domain
from tests.support.server import LiveServer
from tests.support.waiting import eventually

PRIVATE = "vaultasset.ledger"
PUBLIC = "open.raw"
# What old code left: no placement on any event.
STRIP = "MATCH (e:Event) REMOVE e.hides_in, e.hidden_ids, e.hidden_in"


@pytest.fixture
def readers(admin: httpx.Client, make_settings: Callable[..., Settings]) -> PrivateDomain:
    """A private domain holding PRIVATE, beside PUBLIC in none; each asset written,
    linked to the other and found by a policy, so each has events of several kinds."""
    vault = make_private_domain(admin, make_settings(), {PUBLIC: PUBLIC, PRIVATE: PRIVATE})
    assert admin.post("/lineage", json={"source": PUBLIC, "target": PRIVATE}).status_code == 201
    policy = admin.post("/policies", json={"name": "owned", "kind": "require_owner"})
    assert policy.status_code == 201, policy.text
    assert admin.post("/policies/evaluate").status_code == 200
    return vault


def seen(client: httpx.Client) -> list[tuple[str, str]]:
    """(type, subject) of each event the client may read, oldest first."""
    answer = client.get("/events", params={"after": 0, "limit": 500})
    assert answer.status_code == 200, answer.text
    return [(e["type"], str(e["data"].get("id") or e["data"])) for e in answer.json()["items"]]


def private(events: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [e for e in events if "vaultasset" in e[1] or "vaultdom" in e[1]]


def backfill_twice(make_settings: Callable[..., Settings]) -> tuple[int, int]:
    async def twice(graph: Graph) -> tuple[int, int]:
        return await event_placement.backfill(graph), await event_placement.backfill(graph)

    return on_a_graph(make_settings(), twice)


def test_the_backfill_hides_old_events_of_private_subjects_from_readers_without_a_role(
    readers: PrivateDomain,
    admin: httpx.Client,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    outsider, insider = client_of(readers.outsider), client_of(readers.insider)
    placed_at_write = seen(outsider), seen(insider), seen(admin)
    kinds = {kind for kind, _ in private(placed_at_write[2])}
    assert {"asset.created", "lineage.edge.created", "domain.created"} <= kinds, kinds
    assert "policy.violation.opened" in kinds, kinds
    assert private(placed_at_write[0]) == []

    driver.execute_query(STRIP)
    assert private(seen(outsider)) == private(placed_at_write[2])  # the leak old events had

    placed, again = backfill_twice(make_settings)
    assert placed == len(private(placed_at_write[2]))
    assert again == 0
    assert (seen(outsider), seen(insider), seen(admin)) == placed_at_write
    assert seen(outsider) != seen(admin)


def test_a_start_places_old_events_once_and_marks_it_done(
    readers: PrivateDomain, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    driver.execute_query(STRIP)
    driver.execute_query("MATCH (m:Migration {name: 'event_placement'}) DELETE m")
    server = LiveServer(create_app(make_settings())).start()
    try:

        def marked() -> bool:
            found = driver.execute_query(
                "MATCH (m:Migration {name: 'event_placement'}) RETURN count(m) AS n"
            )
            return bool(found.records[0]["n"])

        eventually(marked, timeout=60, what="the event_placement backfill to finish")
        with client_for(server, readers.outsider) as outsider:
            assert private(seen(outsider)) == []
        with client_for(server, readers.insider) as insider:
            assert PRIVATE in {subject for _, subject in seen(insider)}
    finally:
        server.stop()


def test_an_old_quality_alert_stops_naming_owners_of_private_assets_only(
    readers: PrivateDomain,
    admin: httpx.Client,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    owned = {
        "vaultasset.vault": ["ghost@vault.example", "both@example.com"],
        "open.board": ["bi@example.com", "both@example.com"],
    }
    for asset, names in owned.items():
        made = admin.post(
            "/assets", json={"id": asset, "name": asset, "type": "table", "owners": names}
        )
        assert made.status_code == 201, made.text
        assert admin.post("/lineage", json={"source": PUBLIC, "target": asset}).status_code == 201
    rule = admin.post(
        "/quality/rules", json={"asset_id": PUBLIC, "name": "ids", "type": "not_null"}
    )
    assert rule.status_code == 201, rule.text
    failed = admin.post(f"/quality/rules/{rule.json()['id']}/results", json={"status": "fail"})
    assert failed.status_code == 201, failed.text
    outsider, insider = client_of(readers.outsider), client_of(readers.insider)

    def alert_owners(client: httpx.Client) -> list[str]:
        answer = client.get(
            "/events", params={"after": 0, "limit": 500, "types": "quality.rule.failed"}
        )
        assert answer.status_code == 200, answer.text
        (alert,) = answer.json()["items"]
        return list(alert["data"]["impact"]["owners"])

    everyone = ["bi@example.com", "both@example.com", "ghost@vault.example"]
    assert alert_owners(outsider) == ["bi@example.com", "both@example.com"]
    driver.execute_query(STRIP + ", e.hidden_owners, e.hidden_owners_in")
    assert alert_owners(outsider) == everyone  # what an alert written before placement told

    backfill_twice(make_settings)
    assert alert_owners(outsider) == ["bi@example.com", "both@example.com"]
    assert alert_owners(insider) == alert_owners(admin) == everyone
