"""A write that cannot get its locks within the time limit is 503 `neo4j_busy` with
`Retry-After`, not 500, and nothing of it is written."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import neo4j
import pytest

from service.app import create_app
from service.settings import Limits, Settings
from tests.conftest import Tokens, client_for
from tests.support.server import LiveServer

ASSET = {"id": "contended.asset", "name": "before", "type": "table"}


@pytest.fixture
def impatient(make_settings: Callable[..., Settings], clean: None) -> Iterator[LiveServer]:
    server = LiveServer(create_app(make_settings(limits=Limits(query_timeout_s=1.0)))).start()
    yield server
    server.stop()


def test_a_write_blocked_by_a_held_lock_is_503_and_writes_nothing(
    impatient: LiveServer, tokens: Tokens, driver: neo4j.Driver
) -> None:
    with client_for(impatient, tokens.write) as api:
        assert api.post("/assets", json=ASSET).status_code == 201
        with driver.session() as session, session.begin_transaction() as holder:
            holder.run("MATCH (a:Asset {id: $id}) SET a.held = true", id=ASSET["id"]).consume()
            blocked = api.patch(
                f"/assets/{ASSET['id']}",
                content=b'{"name": "after"}',
                headers={"Content-Type": "application/merge-patch+json"},
            )
            holder.rollback()
        assert blocked.status_code == 503, blocked.text
        assert blocked.json()["code"] == "neo4j_busy"
        assert int(blocked.headers["retry-after"]) >= 1
        assert api.get(f"/assets/{ASSET['id']}").json()["name"] == "before"
        events = api.get("/events", params={"types": "asset.*"}).json()["items"]
        assert [e["type"] for e in events] == ["asset.created"]
