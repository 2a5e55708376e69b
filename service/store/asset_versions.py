"""Asset versions: recorded in the transaction of every write that changes an asset,
read back as history (`cypher/assets/record_versions`, `history`, `backfill_versions`).

Every store function that writes an asset, its columns or its existence (create,
replace, patch, delete, merges, dbt uploads, schema facets) calls `record` with the
ids it touched. The snapshot is taken once, just before the commit, so a transaction
that writes an asset twice (a merge, then the replace) leaves one version, and one
that changed nothing leaves none. Placeholders made by lineage are not recorded: they
hold nothing but their id, and a bulk of new edges makes thousands of them (the
statement skips any bare placeholder it is given, so a caller need not sort them out).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service import clock
from service.domain import asset_history
from service.errors import NotFound
from service.graph import Graph, Reader, Tx
from service.models.asset_history import AssetVersion

BACKFILL_PAGE = 5_000


def record(tx: Tx, asset_ids: Iterable[str], now: str, actor: str) -> None:
    """A version of each asset in `asset_ids` that `tx` changed, written by one
    statement with every other id queued in `tx`, just before it commits."""
    items = [{"id": asset_id, "at": now, "actor": actor} for asset_id in asset_ids]
    if items:
        tx.run_last("assets.record_versions", items)


async def _snapshots(
    reader: Reader, asset_id: str, before: int, limit: int
) -> list[dict[str, Any]]:
    rows = await reader.run("assets.history", id=asset_id, before=before, limit=limit)
    return [dict(row["version"]) for row in rows]


async def history(graph: Graph, asset_id: str, before: int, limit: int) -> list[AssetVersion]:
    """Up to `limit` versions newest first, older than `before` (0: from the newest),
    each with its changes from the next older one (ask one more than a page shows).
    An id without versions of its own that is a former id answers the history of the
    asset it names; one that never named an asset is a 404."""

    async def work(reader: Reader) -> list[dict[str, Any]]:
        found = await _snapshots(reader, asset_id, before, limit)
        if found:
            return found
        current = str((await reader.run("identity.resolve", id=asset_id))[0]["id"])
        if current != asset_id:
            found = await _snapshots(reader, current, before, limit)
        if not found and not before and not await reader.run("assets.get", id=asset_id):
            raise NotFound(f"No asset with id {asset_id!r}.", code="asset_not_found")
        return found

    return asset_history.versions(await graph.read_session(work))


async def backfill(graph: Graph) -> int:
    """Version 1 for every asset that has none (kept before versions were), a page of
    assets per transaction; idempotent, so it runs at every start. Versions written."""
    after, written = "", 0
    while True:
        rows = await graph.write(
            "assets.backfill_versions", after=after, limit=BACKFILL_PAGE, now=clock.now_iso()
        )
        written += int(rows[0]["written"])
        if rows[0]["last"] is None:
            return written
        after = str(rows[0]["last"])
