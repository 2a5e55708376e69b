"""The one line the dashboard shows for an event names what it is about."""

from __future__ import annotations

from typing import Any

from service.dashboard.present import subject_asset, summary
from service.models.events import Event


def event(type_: str, data: dict[str, Any]) -> Event:
    return Event(
        id="evt_1", seq=1, type=type_, occurred_at="2026-11-24T10:00:00Z", actor="x", data=data
    )


def test_users_are_named_by_username_and_tokens_by_name() -> None:
    made = event("audit.user.created", {"id": "usr_1", "username": "ada", "role": "viewer"})
    assert summary(made) == "ada"
    assert summary(event("token.created", {"id": "tok_1", "name": "ci"})) == "ci"
    assert summary(event("audit.webhook.deleted", {"id": "whk_1"})) == "whk_1"


def test_lineage_and_asset_events_read_as_such() -> None:
    edge = event("lineage.edge.created", {"source": "a", "target": "b"})
    assert summary(edge) == "a → b"
    assert subject_asset(event("asset.created", {"id": "raw.orders"})) == "raw.orders"
    assert subject_asset(event("asset.deleted", {"id": "raw.orders"})) is None
