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


def emit(
    tx: Tx,
    type_: str,
    data: Any,
    actor: str,
    *,
    alert: bool = False,
    severity: str | None = None,
    owner: str | None = None,
) -> None:
    """Append one event. It is written last in the transaction, just before the commit,
    so the sequence counter is locked for the commit only. `owner` is the user an event
    of a private kind belongs to (`token.*`: the token's user; see `TypeFilter.owned`)."""
    emit_many(tx, [Pending(type_, data, alert, severity, owner)], actor)


@dataclass(frozen=True)
class Pending:
    """One event of a batch (see `emit_many`)."""

    type: str
    data: Any
    alert: bool = False
    severity: str | None = None
    owner: str | None = None


def emit_many(tx: Tx, events: list[Pending], actor: str) -> None:
    """Append a batch; all of a transaction's events are written by one statement."""
    now = clock.now_iso()
    tx.run_last(
        "events.append_many",
        [
            {
                "id": new_id("evt"),
                "type": e.type,
                "occurred_at": now,
                "actor": actor,
                "data": orjson.dumps(_plain(e.data)).decode(),
                "alert": e.alert,
                "severity": e.severity,
                "owner": e.owner,
            }
            for e in events
        ],
    )


def _plain(data: Any) -> Any:
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json")
    return data
