"""The event envelope: what every event in the log and on the live stream looks like."""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import Field, PrivateAttr

from service.models.common import ResponseModel


class Event(ResponseModel):
    id: str
    seq: int
    type: str
    occurred_at: str
    actor: str
    data: Any
    alert: bool | None = Field(default=None, description="present on alerts only")
    severity: str | None = Field(default=None, description="present on alerts only")
    # The user a private event (`token.*`) belongs to: decides who sees it, never shown.
    _owner: str | None = PrivateAttr(default=None)
    # Where its subjects sit (`event_privacy`): the private domains a reader must read
    # to see it, the mentioned assets in private domains (id -> domain), and the owners
    # it names for such assets only (owner -> their domains). Never shown.
    _hides_in: tuple[str, ...] = PrivateAttr(default=())
    _hidden: dict[str, str] = PrivateAttr(default_factory=dict)
    _hidden_owners: dict[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)

    @property
    def owner(self) -> str | None:
        return self._owner

    @property
    def hides_in(self) -> tuple[str, ...]:
        return self._hides_in

    @property
    def hidden(self) -> dict[str, str]:
        return self._hidden

    @property
    def hidden_owners(self) -> dict[str, tuple[str, ...]]:
        return self._hidden_owners

    @classmethod
    def from_node(cls, node: dict[str, Any]) -> Event:
        event = cls(
            id=node["id"],
            seq=int(node["seq"]),
            type=node["type"],
            occurred_at=node["occurred_at"],
            actor=node["actor"],
            data=orjson.loads(node["data"]),
            alert=True if node.get("alert") else None,
            severity=node.get("severity") if node.get("alert") else None,
        )
        event._owner = node.get("owner")
        event._hides_in = tuple(node.get("hides_in") or ())
        hidden_ids, hidden_in = node.get("hidden_ids") or (), node.get("hidden_in") or ()
        event._hidden = dict(zip(hidden_ids, hidden_in, strict=True))
        owners, places = node.get("hidden_owners") or (), node.get("hidden_owners_in") or ()
        for owner, domain in zip(owners, places, strict=True):
            event._hidden_owners[owner] = (*event._hidden_owners.get(owner, ()), domain)
        return event

    def envelope(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class EventPage(ResponseModel):
    items: list[Event]
    next_cursor: str | None
