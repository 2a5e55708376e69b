"""What the tests of lineage through time share: a moment between two writes, an edge
written as the service wrote edges before it kept their history, and a read."""

from __future__ import annotations

from typing import Any

import httpx

from service import clock

# Two assets and an edge as a graph from before history held them: no interval, no
# change record, only the edge's own timestamps.
EDGE_FROM_BEFORE_HISTORY = (
    "CREATE (:Asset {id: 'old.src', name: 'old.src', type: 'table', tags: [],"
    " owners: [], placeholder: false, version: 1,"
    " created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z'})"
    "-[:LINEAGE {origins: ['api'], transformation: 'copy',"
    " created_at: '2024-02-01T00:00:00.000Z', updated_at: '2024-02-01T00:00:00.000Z'}]->"
    "(:Asset {id: 'old.dst', name: 'old.dst', type: 'table', tags: [], owners: [],"
    " placeholder: false, version: 1,"
    " created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z'})"
)


def moment() -> str:
    """An instant after everything done so far and before anything done next (stored
    instants have millisecond precision, so the clock is let pass one)."""
    now = clock.now_iso()
    while clock.now_iso() == now:
        pass
    return now


def read(client: httpx.Client, path: str, **params: Any) -> dict[str, Any]:
    answer = client.get(path, params=params)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body
