"""Where an event is placed when nothing is private, and when a domain turns private
while the event is being appended, on real Neo4j.

The append statement skips the look-ups of an event's subjects while no domain is
private and no asset is marked private (`events.append_many`), and it decides that
only after taking the event counter's lock. A domain change appends its own event, so
it holds that lock until it commits: an append that waited for it sees the domain and
places its event there. The race is made to happen every time: the domain change
writes and stays open, the append runs until Neo4j reports it blocked on the change's
lock (`SHOW TRANSACTIONS`), then the change commits. An append that decided before the
lock would leave its event visible to everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import neo4j
import pytest

from service.graph import Graph, Tx
from service.settings import Settings
from service.store.outbox import emit
from tests.support.graphs import on_a_graph
from tests.support.waiting import eventually

ASSET = "vaultasset.one"
DOMAIN = "vaultdom"

# A domain change as it commits (`domains.put`, then the re-evaluation's placing of its
# assets, here in the same transaction): the domain, a new rules stamp, the asset
# marked private, and its own event's number from the counter (the lock).
MADE_PRIVATE = """
MERGE (c:EventCounter {name: 'events'}) ON CREATE SET c.value = 0
SET c.value = c.value + 1
MERGE (d:Domain {id: $domain}) SET d.private = true
MERGE (s:DomainRules {id: 'rules'}) SET s.stamp = randomUUID()
WITH d
MATCH (a:Asset {id: $asset})
SET a.domain = d.id, a.domain_private = true
"""


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as executor:
        yield executor


@pytest.fixture
def asset(clean: None, driver: neo4j.Driver) -> str:
    """ASSET in no domain, and the event counter (as any earlier event leaves it)."""
    driver.execute_query(
        "CREATE (:Asset {id: $asset, name: $asset, type: 'table'}) "
        "MERGE (c:EventCounter {name: 'events'}) ON CREATE SET c.value = 0",
        asset=ASSET,
    )
    return ASSET


def _announce(settings: Settings, asset_id: str) -> None:
    """An `asset.updated` event about `asset_id`, appended as every write appends its
    events (`outbox.emit`, in a transaction of its own)."""

    async def work(tx: Tx) -> None:
        emit(tx, "asset.updated", {"id": asset_id}, "token:tok_race")

    async def append(graph: Graph) -> None:
        await graph.write_tx(work)

    on_a_graph(settings, append)


def _placement(driver: neo4j.Driver) -> list[list[str] | None]:
    records = driver.execute_query(
        "MATCH (e:Event {type: 'asset.updated'}) RETURN e.hides_in AS hides ORDER BY e.seq"
    ).records
    return [r["hides"] for r in records]


def _blocked(driver: neo4j.Driver) -> bool:
    records = driver.execute_query(
        "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n"
    ).records
    return int(records[0]["n"]) > 0


def test_an_event_appended_while_its_asset_turns_private_is_placed_in_the_domain(
    asset: str,
    driver: neo4j.Driver,
    pool: ThreadPoolExecutor,
    make_settings: Callable[..., Settings],
) -> None:
    with driver.session() as session:
        change = session.begin_transaction()
        try:
            change.run(MADE_PRIVATE, domain=DOMAIN, asset=asset).consume()
            appending: Future[None] = pool.submit(_announce, make_settings(), asset)
            eventually(lambda: _blocked(driver), timeout=30, what="the append waits")
            change.commit()
        finally:
            if change.closed() is False:
                change.rollback()
    appending.result(timeout=60)
    assert _placement(driver) == [[DOMAIN]]


def test_an_asset_still_marked_private_hides_its_events_with_no_private_domain_left(
    asset: str, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    """Its private domain was deleted and its assets are not placed again yet: no domain
    is private, yet the asset's mark still places its events, as it did before."""
    driver.execute_query(
        "MATCH (a:Asset {id: $asset}) SET a.domain = $domain, a.domain_private = true",
        asset=asset,
        domain=DOMAIN,
    )
    _announce(make_settings(), asset)
    assert _placement(driver) == [[DOMAIN]]


def test_with_public_domains_only_an_event_is_placed_nowhere(
    asset: str, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    driver.execute_query(
        "CREATE (:Domain {id: $domain, private: false}) WITH 1 AS one "
        "MATCH (a:Asset {id: $asset}) SET a.domain = $domain",
        asset=asset,
        domain=DOMAIN,
    )
    _announce(make_settings(), asset)
    assert _placement(driver) == [None]
