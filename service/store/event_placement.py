"""Placing events written before events were placed (`cypher/events/append_many`):
such an event carries no `hides_in`/`hidden_ids`, so every reader saw it even when
its subjects sit in a private domain. The start-up backfill `event_placement`
(`service.lifespan.BACKFILLS`, once per database) places them as their subjects stand
now, and a quality alert's owners named only for private assets are hidden with them;
a subject deleted since is no longer there to place by, so its events stay visible, as
they were. Old ingestion summaries name no subject; a second backfill,
`summary_placement`, shows them only to readers of every private domain.
"""

from __future__ import annotations

from collections.abc import Awaitable
from functools import partial
from typing import Any, Protocol

import orjson

from service.domain.event_privacy import subjects_of
from service.graph import Graph, Tx

BATCH = 2_000
# Ingestion summaries: they name no subject, so only the migration for them places old ones.
SUMMARIES = ("lineage.bulk.ingested", "lineage.manifest.ingested")
# A page's transaction may take longer than a request's (`GOVERNANCE_QUERY_TIMEOUT`):
# on a busy server, planning the placement statement the first time alone has taken
# over 10 s, and a start-up backfill that times out would time out at every start.
BATCH_TIMEOUT_S = 120.0


async def backfill(graph: Graph) -> int:
    """Place every unplaced event whose subjects are private now, a page of the log per
    transaction; idempotent. How many events it placed."""
    return await _by_pages(graph, _place_page)


class Page(Protocol):
    """One page's work: the last seq it saw (None at the end) and how many it placed."""

    def __call__(self, tx: Tx, after: int) -> Awaitable[tuple[int | None, int]]: ...


async def _by_pages(graph: Graph, page: Page) -> int:
    """Run `page` over the log a page per transaction, each after the last seq the one
    before saw, until one saw the end; the sum of what they placed."""
    placed, after = 0, 0
    while True:
        last, count = await graph.write_tx(partial(page, after=after), BATCH_TIMEOUT_S)
        placed += count
        if last is None:
            return placed
        after = last


async def _place_page(tx: Tx, after: int) -> tuple[int | None, int]:
    row = (await tx.run("events.unplaced_page", after=after, batch=BATCH))[0]
    items = [item for event in row["unplaced"] if (item := _subjects(event))]
    placed = (await tx.run("events.place_unplaced", items=items))[0]["placed"] if items else 0
    last = row["last"]
    return (None if last is None else int(last)), int(placed)


async def place_old_summaries(graph: Graph) -> int:
    """Place the ingestion summaries written before summaries were placed in every domain
    private now (`cypher/events/place_old_summaries`), a page of the log per transaction;
    idempotent. Runs as its own migration (`summary_placement`), after `event_placement`,
    so a database that placed its old events before this step existed takes it too. How
    many summaries it placed."""
    return await _by_pages(graph, _place_summaries)


async def _place_summaries(tx: Tx, after: int) -> tuple[int | None, int]:
    rows = await tx.run(
        "events.place_old_summaries",
        after=after,
        batch=BATCH,
        types=list(SUMMARIES),
        placed_by="event_placement",
    )
    if not rows:  # no private domain, or nothing after `after`
        return None, 0
    last = rows[0]["last"]
    return (None if last is None else int(last)), int(rows[0]["placed"])


def _subjects(event: dict[str, Any]) -> dict[str, Any] | None:
    """The placement statement's item for one event; None when it names no subject."""
    try:
        data = orjson.loads(event["data"]) if event["data"] else None
    except orjson.JSONDecodeError:
        return None
    subjects = subjects_of(str(event["type"]), data)
    if not (subjects.assets or subjects.rule or subjects.domain or subjects.mentions):
        return None
    return {
        "seq": event["seq"],
        "assets": list(subjects.assets),
        "rule": subjects.rule,
        "domain": subjects.domain,
        "mentions": list(subjects.mentions),
        "owners": _alert_owners(data),
    }


def _alert_owners(data: Any) -> list[str]:
    """A quality alert's impact owners (empty for any other event): those named only for
    private assets are hidden from readers without a role there."""
    impact = data.get("impact") if isinstance(data, dict) else None
    owners = impact.get("owners") if isinstance(impact, dict) else None
    return [str(owner) for owner in owners] if isinstance(owners, list) else []
