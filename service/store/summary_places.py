"""Where an ingestion's summary event (`lineage.bulk.ingested`,
`lineage.manifest.ingested`) is placed: in the private domains of every asset the
request wrote, read in the writing transaction. A summary names no subject the append
statement could look up, yet its counts, project and warnings speak of those assets;
so a reader sees it only with a role in each such domain, as for an edge event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from service.domain.domains import DomainRules
from service.graph import Tx


def row_ends(rows: Iterable[Mapping[str, Any]], ends: Mapping[str, str]) -> list[str]:
    """The asset ids at both ends of edge or column rows, dataset ends (DATASET_MARK +
    key) resolved through `ends`."""
    return [ends.get(row[side], row[side]) for row in rows for side in ("source", "target")]


async def hides_in(tx: Tx, ids: Iterable[str], rules: DomainRules) -> tuple[str, ...]:
    """The private domains among the assets `ids` (nothing is read while no domain is
    private, the everyday path). `rules`: those the transaction placed its assets by,
    already read in it, so a request reads the rules stamp once."""
    wanted = sorted(set(ids))
    if not rules.private or not wanted:
        return ()
    rows = await tx.run("events.private_domains", ids=wanted)
    return tuple(sorted(rows[0]["domains"]))
