"""`GET /lineage/{id}/diff`: one traversal at two instants, compared
(`service.domain.history.diff`), then redacted for the caller
(`service.domain.redaction.redact_diff`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.domain.access.principal import Principal
from service.domain.history import diff as compare
from service.domain.lineage_pages import Page
from service.domain.redaction import PLACE_KEYS, hidden_domains, redact_diff
from service.errors import NotFound
from service.graph import Graph
from service.store import domain_guard
from service.store.lineage import placed_page


@dataclass(frozen=True)
class Compared:
    """The two walks and what changed between them, before any redaction: every node
    still has its `domain` and `private`."""

    root: str
    before: Page | None
    after: Page | None
    changes: dict[str, Any]

    @property
    def places(self) -> dict[str, dict[str, Any]]:
        """Each node's `domain` and `private`, over both walks."""
        pages = (p for p in (self.before, self.after) if p is not None)
        return {str(n["id"]): {k: n.get(k) for k in PLACE_KEYS} for p in pages for n in p.nodes}

    @property
    def truncated(self) -> bool:
        return any(p.more for p in (self.before, self.after) if p is not None)


async def compared(
    graph: Graph,
    root_id: str,
    direction: str,
    depth: int,
    limit: int,
    since: str,
    until: str,
    token_hash: str | None = None,
) -> Compared:
    """The neighbourhood at `since` and at `until`, each walked from the history layer.
    A root that existed at only one of them has an empty neighbourhood at the other;
    404 when it existed at neither. Compared by real ids: redact only the outcome."""

    async def at(instant: str) -> Page | None:
        try:
            return await placed_page(graph, root_id, direction, depth, limit, instant, token_hash)
        except NotFound:
            return None

    before, after = await at(since), await at(until)
    found = [page for page in (before, after) if page is not None]
    if not found:
        raise NotFound(
            f"No asset with id {root_id!r} at {since} or at {until}.", code="asset_not_found"
        )
    changes = compare(
        before.nodes if before else [],
        before.edges if before else [],
        after.nodes if after else [],
        after.edges if after else [],
    )
    return Compared(found[-1].root, before, after, changes)


async def diff(
    graph: Graph,
    root_id: str,
    direction: str,
    depth: int,
    limit: int,
    since: str,
    until: str,
    *,
    token_hash: str | None = None,
    viewer: Principal | None = None,
) -> dict[str, Any]:
    """The `/diff` answer: `compared`, with what `viewer` may not read as stand-ins,
    one per asset across the answer."""
    found = await compared(graph, root_id, direction, depth, limit, since, until, token_hash)
    places = found.places
    teams = await domain_guard.owner_teams(graph, hidden_domains(viewer, places.values()))
    shown, redacted = redact_diff(viewer, found.changes, places, teams)
    return {
        "root": found.root,
        "direction": direction,
        "depth": depth,
        "from": since,
        "to": until,
        **shown,
        "truncated": found.truncated,
        "redacted": redacted,
    }
