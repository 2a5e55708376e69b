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

    @property
    def owner(self) -> str | None:
        return self._owner

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
        return event

    def envelope(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class EventPage(ResponseModel):
    items: list[Event]
    next_cursor: str | None
