"""Ingestion summaries written before summaries were placed name no asset to place them
by, so every reader saw them, a private project's upload included. The start-up backfill
`summary_placement` shows such an old summary only to readers of every private domain
(a global admin, or a member of each); one written since, which was left unplaced
because it spoke of public assets only, stays visible; and while no domain is private
nothing is placed."""

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
from tests.support.start_up import await_start_up_backfills
from tests.support.waiting import eventually

PRIVATE = "vaultasset.ledger"
PUBLIC = "open.raw"
OTHER = "open.board"
SUMMARY = "lineage.bulk.ingested"


@pytest.fixture
def readers(
    admin: httpx.Client, make_settings: Callable[..., Settings], driver: neo4j.Driver
) -> PrivateDomain:
    """The private domain holding PRIVATE, beside PUBLIC and OTHER in none, once the
    start-up backfills are over."""
    await_start_up_backfills(driver)
    return make_private_domain(admin, make_settings(), {PUBLIC: PUBLIC, PRIVATE: PRIVATE})


def ingest(admin: httpx.Client, source: str, target: str) -> str:
    """Ingest one edge in bulk; the id of the summary event it wrote."""
    answer = admin.post("/lineage/bulk", json=[{"source": source, "target": target}])
    assert answer.status_code == 200, answer.text
    return summaries(admin)[-1]


def summaries(client: httpx.Client) -> list[str]:
    """The ids of the ingestion summaries the client may read, oldest first."""
    answer = client.get("/events", params={"after": 0, "limit": 500, "types": SUMMARY})
    assert answer.status_code == 200, answer.text
    return [e["id"] for e in answer.json()["items"]]


def make_old(driver: neo4j.Driver, event_id: str) -> None:
    """What a version that did not place summaries left: no placement."""
    driver.execute_query("MATCH (e:Event {id: $id}) REMOVE e.hides_in", id=event_id)


def mark_placement_done(driver: neo4j.Driver) -> None:
    """The `event_placement` migration ends now: what was written before is old."""
    driver.execute_query(
        "MATCH (m:Migration {name: 'event_placement'}) "
        "SET m.done_at = toString(datetime.realtime('Z'))"
    )


def place_twice(make_settings: Callable[..., Settings]) -> tuple[int, int]:
    async def twice(graph: Graph) -> tuple[int, int]:
        first = await event_placement.place_old_summaries(graph)
        return first, await event_placement.place_old_summaries(graph)

    return on_a_graph(make_settings(), twice)


def test_an_old_summary_reaches_only_readers_of_every_private_domain(
    readers: PrivateDomain,
    admin: httpx.Client,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    outsider, insider = client_of(readers.outsider), client_of(readers.insider)
    old = ingest(admin, PUBLIC, PRIVATE)
    assert old not in summaries(outsider)  # placed when written
    make_old(driver, old)
    mark_placement_done(driver)
    public = ingest(admin, PUBLIC, OTHER)  # written since, of public assets: unplaced
    assert summaries(outsider) == [old, public]  # the leak old summaries had

    assert place_twice(make_settings) == (1, 0)
    assert summaries(outsider) == [public]
    assert summaries(insider) == summaries(admin) == [old, public]
    # a second private domain the insider has no role in: the old summary is now
    # hidden from them too, as it was placed in every private domain
    assert admin.put("/teams/sealers", json={"display_name": "Sealers"}).status_code == 201
    made = admin.put("/domains/sealed", json={"owner_team": "sealers", "private": True})
    assert made.status_code == 201, made.text
    driver.execute_query("MATCH (e:Event {id: $id}) REMOVE e.hides_in", id=old)
    assert place_twice(make_settings) == (1, 0)
    assert summaries(insider) == [public]
    assert summaries(admin) == [old, public]
    placed = driver.execute_query("MATCH (e:Event {id: $id}) RETURN e.hides_in AS d", id=old)
    assert placed.records[0]["d"] == ["sealed", "vaultdom"]


def test_old_summaries_stay_visible_while_no_domain_is_private(
    readers: PrivateDomain,
    admin: httpx.Client,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    old = ingest(admin, PUBLIC, PRIVATE)
    make_old(driver, old)
    mark_placement_done(driver)
    made = admin.put("/domains/vaultdom", json={"owner_team": "vaultkeepers", "private": False})
    assert made.status_code == 200, made.text

    assert place_twice(make_settings) == (0, 0)
    assert summaries(client_of(readers.outsider)) == [old]


def test_a_start_places_old_summaries_once_and_marks_it_done(
    readers: PrivateDomain,
    admin: httpx.Client,
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    old = ingest(admin, PUBLIC, PRIVATE)
    make_old(driver, old)
    mark_placement_done(driver)
    driver.execute_query("MATCH (m:Migration {name: 'summary_placement'}) DELETE m")
    server = LiveServer(create_app(make_settings())).start()
    try:

        def marked() -> bool:
            found = driver.execute_query(
                "MATCH (m:Migration {name: 'summary_placement'}) RETURN count(m) AS n"
            )
            return bool(found.records[0]["n"])

        eventually(marked, timeout=60, what="the summary_placement backfill to finish")
        with client_for(server, readers.outsider) as outsider:
            assert summaries(outsider) == []
        with client_for(server, readers.insider) as insider:
            assert summaries(insider) == [old]
    finally:
        server.stop()
