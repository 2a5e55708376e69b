"""`GET /lineage/{id}/diff`: one traversal at two instants, compared
(`service.domain.history.diff`)."""

from __future__ import annotations

from typing import Any

from service.domain.history import diff as compare
from service.domain.lineage import LineageView
from service.errors import NotFound
from service.graph import Graph
from service.store.lineage import traverse


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
) -> dict[str, Any]:
    """The neighbourhood at `since` and at `until`, each walked from the history layer.
    A root that existed at only one of them has an empty neighbourhood at the other;
    404 when it existed at neither."""

    async def at(instant: str) -> LineageView | None:
        try:
            return await traverse(
                graph, root_id, direction, depth, limit, token_hash=token_hash, as_of=instant
            )
        except NotFound:
            return None

    before, after = await at(since), await at(until)
    found = [view for view in (before, after) if view is not None]
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
    return {
        "root": found[-1].root,
        "direction": direction,
        "depth": depth,
        "from": since,
        "to": until,
        **changes,
        "truncated": any(view.truncated for view in found),
    }
