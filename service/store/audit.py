"""The audit trail: administrative changes recorded as `audit.*` events.

An audit event is written by the change's own transaction (through the outbox), so
it exists exactly when the change committed. The one action with no transaction of
its own to join, a read-only Cypher query or a webhook test, writes its event once
it has run. Readers below admin never see these events (see `TypeFilter.hidden`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from service.graph import Graph, Tx
from service.store.outbox import emit


def record(tx: Tx, action: str, data: dict[str, Any], actor: str) -> None:
    """Append `audit.<action>` to the caller's transaction."""
    emit(tx, f"audit.{action}", data, actor)


async def record_alone(graph: Graph, action: str, data: dict[str, Any], actor: str) -> None:
    """`record` in a transaction of its own, for an action that wrote nothing."""

    async def work(tx: Tx) -> None:
        record(tx, action, data, actor)

    await graph.write_tx(work)


def query_digest(text: str) -> dict[str, Any]:
    """What the trail keeps of a query: its SHA-256 and length, never the text or values."""
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "length": len(text)}
