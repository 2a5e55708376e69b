"""The history layer of lineage (`cypher/history/`): every change to a live edge or
column mapping recorded in the transaction that made it, the backfill of histories
for edges from before they were kept, and retention.

Each write path calls `record_edges` / `record_columns` (or their asset-wide forms)
after the statement that changed live lineage, with the pairs it may have changed;
the statement compares each pair's live state with its open interval, so a pair that
did not change writes nothing and repeating a request adds no history.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from service import clock
from service.domain.history import OPEN
from service.domain.lineage import column_key
from service.graph import Graph, Tx

BACKFILL_BATCH = 1_000
PRUNE_BATCH = 1_000


def _distinct(pairs: Iterable[tuple[str, str] | list[str]]) -> list[list[str]]:
    return [list(p) for p in sorted({(p[0], p[1]) for p in pairs})]


async def record_edges(tx: Tx, pairs: Iterable[tuple[str, str] | list[str]], now: str) -> int:
    """Open, close or split the history of each (source, target) pair to match the
    live graph in `tx`; how many histories changed."""
    rows = _distinct(pairs)
    if not rows:
        return 0
    done = await tx.run("history.record_edges", pairs=rows, now=now, open=OPEN)
    return int(done[0]["recorded"])


async def record_columns(tx: Tx, pairs: Iterable[tuple[str, str] | list[str]], now: str) -> int:
    """`record_edges` for column mappings, as (source column key, target column key)."""
    rows = _distinct(pairs)
    if not rows:
        return 0
    done = await tx.run("history.record_columns", pairs=rows, now=now, open=OPEN)
    return int(done[0]["recorded"])


async def record_assets(tx: Tx, ids: Iterable[str], now: str) -> None:
    """After a change to whole assets (a deletion, an identity merge): every edge and
    column mapping touching them, live or still open in the history, brought in line."""
    wanted = sorted(set(ids))
    found = await tx.run("history.asset_pairs", ids=wanted, open=OPEN)
    await record_edges(tx, found[0]["pairs"], now)
    prefixes = [column_key(asset_id, "") for asset_id in wanted]
    columns = await tx.run("history.column_pairs", prefixes=prefixes, open=OPEN)
    await record_columns(tx, columns[0]["pairs"], now)


async def backfill(graph: Graph) -> int:
    """Open a history, at the edge's creation, for every live edge and column mapping
    that has none (a database from before history was kept). Idempotent and batched;
    start-up runs it. How many histories were opened."""
    opened = 0
    for name in ("history.backfill_edges", "history.backfill_columns"):
        after: str | None = ""
        while after is not None:
            row = (
                await graph.write(
                    name, after=after, batch=BACKFILL_BATCH, now=clock.now_iso(), open=OPEN
                )
            )[0]
            opened += int(row["opened"])
            after = row["last"]
    return opened


async def _fill(graph: Graph, name: str) -> int:
    """Run the batched, idempotent fill `name` over every trail; how much it filled."""
    filled = 0
    after: str | None = ""
    while after is not None:
        row = (await graph.write(name, after=after, batch=BACKFILL_BATCH))[0]
        filled += int(row["filled"])
        after = row["last"]
    return filled


async def fill_instants(graph: Graph) -> int:
    """Give edge histories written before it was kept their scalar summary with its
    instants in epoch milliseconds (`history.record_edges`: what lets an as_of walk
    skip the interval arrays), dropping the instant strings earlier versions kept
    instead. Idempotent and batched; how many histories were filled."""
    return await _fill(graph, "history.fill_instants")


async def fill_trails(graph: Graph) -> int:
    """Give trails written before it was kept what shows a node as of an instant
    without reading the live asset (`history.fill_trails`). Idempotent and batched;
    how many trails were filled."""
    return await _fill(graph, "history.fill_trails")


async def prune(graph: Graph, retention: timedelta, now: datetime | None = None) -> int:
    """Retention: forget edge and column history that ended more than `retention` ago,
    and asset versions older than that but the newest one at the cutoff (the baseline).
    The graph as it stood at any instant since the cutoff still answers. Batched; how
    many histories and assets were pruned."""
    cutoff = clock.format_time((now or clock.now()) - retention)
    pruned = 0
    for name in (
        "history.prune_edges",
        "history.prune_columns",
        "history.prune_asset_versions",
    ):
        while True:
            params = {"cutoff": cutoff, "batch": PRUNE_BATCH}
            if name != "history.prune_asset_versions":
                params["open"] = OPEN
            count = int((await graph.write(name, **params))[0]["pruned"])
            pruned += count
            if count < PRUNE_BATCH:
                break
    return pruned
