"""Placing every asset again after a domain changed: batches in id order, each in a
transaction of its own that reads the rules current then and writes only the assets
whose domain changes (so a re-evaluation that changes nothing writes nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.domain.domains import placement
from service.graph import Graph, Tx
from service.store import asset_domains
from service.store.outbox import emit

BATCH = 5_000


@dataclass
class Moves:
    added: int = 0  # assets that entered the changed domain
    removed: int = 0  # assets that left it
    placed: int = 0  # assets whose domain changed at all
    after: str = ""
    done: bool = False


def _row(found: Mapping[str, Any], where: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": found["id"],
        "domain": where.get("domain"),
        "private": where.get("domain_private"),
    }


async def _batch(tx: Tx, domain_id: str, moves: Moves) -> None:
    rules = await asset_domains.current(tx)
    found = await tx.run("domains.scan_assets", after=moves.after, limit=BATCH)
    changed = []
    for record in found:
        node = {
            "id": record["id"],
            "tags": record["tags"],
            "prop.dbt_project": record["dbt_project"],
        }
        where = placement(node, rules)
        if (where.get("domain"), bool(where.get("domain_private"))) == (
            record["domain"],
            record["private"],
        ):
            continue
        changed.append(_row(record, where))
        moves.added += where.get("domain") == domain_id
        moves.removed += record["domain"] == domain_id
    if changed:
        await tx.run("domains.place_assets", rows=changed)
    moves.placed += len(changed)
    moves.after = found[-1]["id"] if found else moves.after
    moves.done = len(found) < BATCH


async def reevaluate(
    graph: Graph, domain_id: str, actor: str, hides_in: tuple[str, ...] = ()
) -> Moves:
    """Place every asset by the current rules; one `domain.membership.changed` event
    counts the assets that entered and left `domain_id`. `hides_in`: the private domain
    a deleted domain was, which is no longer there for the event to be placed in."""
    moves = Moves()
    while not moves.done:
        start = Moves(**{**moves.__dict__})

        async def work(tx: Tx, start: Moves = start) -> Moves:
            attempt = Moves(**{**start.__dict__})  # a retried transaction starts over
            await _batch(tx, domain_id, attempt)
            if attempt.done and (attempt.added or attempt.removed):
                data = {"domain": domain_id, "added": attempt.added, "removed": attempt.removed}
                emit(tx, "domain.membership.changed", data, actor, hides_in=hides_in)
            return attempt

        moves = await graph.write_tx(work)
    return moves
