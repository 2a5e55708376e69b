"""Read-modify-write on one versioned node: lock it, then check If-Match."""

from __future__ import annotations

from typing import Any

from service.domain.preconditions import Expected
from service.errors import NotFound, PreconditionFailed
from service.graph import Tx


async def locked(
    tx: Tx, query: str, node_id: str, expected: Expected | None, missing: NotFound
) -> dict[str, Any]:
    """The node's properties with its write lock held until commit; `query` answers
    one row with one column (the node's map) when the node exists."""
    rows = await tx.run(query, id=node_id)
    if not rows:
        raise missing
    current: dict[str, Any] = next(iter(rows[0].values()))
    if expected is not None and not expected.holds(int(current["version"])):
        raise PreconditionFailed("If-Match does not match the current version.")
    return current
