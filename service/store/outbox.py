"""The transactional outbox: every change writes its event in its own transaction.

Nothing is announced that did not happen (a rolled-back change takes its event
with it) and nothing that happened goes unannounced (the event commits with it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from service import clock
from service.domain.event_privacy import subjects_of
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
    hides_in: tuple[str, ...] = (),
) -> None:
    """Append one event. It is written last in the transaction, just before the commit,
    so the sequence counter is locked for the commit only. `owner` is the user an event
    of a private kind belongs to (`token.*`: the token's user; see `TypeFilter.owned`).
    `hides_in`: private domains of subjects gone before the append runs (see `Pending`)."""
    emit_many(tx, [Pending(type_, data, alert, severity, owner, hides_in)], actor)


@dataclass(frozen=True)
class Pending:
    """One event of a batch (see `emit_many`). The append statement places it in the
    private domains of its subjects as they are at commit (`event_privacy`); a subject
    deleted in the same transaction is no longer there to read, so its writer names
    its private domain in `hides_in`, and the assets it mentions that it placed itself
    (one deleted meanwhile among them) in `gone`, as (id, private domain). `hidden_owners` pairs each owner named only for assets in private domains
    with each such domain (`event_privacy.hidden_owners`)."""

    type: str
    data: Any
    alert: bool = False
    severity: str | None = None
    owner: str | None = None
    hides_in: tuple[str, ...] = ()
    hidden_owners: tuple[tuple[str, str], ...] = ()
    gone: tuple[tuple[str, str], ...] = ()


def emit_many(tx: Tx, events: list[Pending], actor: str) -> None:
    """Append a batch; all of a transaction's events are written by one statement."""
    now = clock.now_iso()
    tx.run_last("events.append_many", [_item(e, now, actor) for e in events])


def _item(event: Pending, now: str, actor: str) -> dict[str, Any]:
    data = _plain(event.data)
    subjects = subjects_of(event.type, data)
    return {
        "id": new_id("evt"),
        "type": event.type,
        "occurred_at": now,
        "actor": actor,
        "data": orjson.dumps(data).decode(),
        "alert": event.alert,
        "severity": event.severity,
        "owner": event.owner,
        "assets": list(subjects.assets),
        "rule": subjects.rule,
        "domain": subjects.domain,
        "mentions": list(subjects.mentions),
        "hides_in": list(event.hides_in),
        "gone": [list(pair) for pair in event.gone],
        "hidden_owners": [owner for owner, _ in event.hidden_owners],
        "hidden_owners_in": [domain for _, domain in event.hidden_owners],
    }


def _plain(data: Any) -> Any:
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json")
    return data
