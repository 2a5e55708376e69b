"""The transactional outbox: every change writes its event in its own transaction.

Nothing is announced that did not happen (a rolled-back change takes its event
with it) and nothing that happened goes unannounced (the event commits with it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from service import clock
from service.graph import Tx
from service.ids import new_id


async def emit(
    tx: Tx,
    type_: str,
    data: Any,
    actor: str,
    *,
    alert: bool = False,
    severity: str | None = None,
) -> int:
    """Append one event; returns its sequence number."""
    rows = await tx.run(
        "events.append",
        id=new_id("evt"),
        type=type_,
        now=clock.now_iso(),
        actor=actor,
        data=orjson.dumps(_plain(data)).decode(),
        alert=alert,
        severity=severity,
    )
    return int(rows[0]["seq"])


@dataclass(frozen=True)
class Pending:
    """One event of a batch (see `emit_many`)."""

    type: str
    data: Any
    alert: bool = False
    severity: str | None = None


async def emit_many(tx: Tx, events: list[Pending], actor: str) -> None:
    """Append a batch in one statement; a thousand results cost one round trip, not a thousand."""
    if not events:
        return
    await tx.run(
        "events.append_many",
        events=[
            {
                "id": new_id("evt"),
                "type": e.type,
                "data": orjson.dumps(_plain(e.data)).decode(),
                "alert": e.alert,
                "severity": e.severity,
            }
            for e in events
        ],
        now=clock.now_iso(),
        actor=actor,
    )


def _plain(data: Any) -> Any:
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json")
    return data
