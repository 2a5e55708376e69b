"""The JSON query language over a private domain, through HTTP: a caller with no role
there never starts from, filters on, or is answered one of its assets (the walks still
pass through them to the assets beyond), and a path through one shows a stand-in. A
domain admin who is a global viewer may not use the administrators' routes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.conftest import client_for
from tests.support.dashboard import make_user
from tests.support.server import LiveServer
from tests.support.tokens import token_of

# open.a -> vaultasset.mid -> open.b, and vaultasset.solo alone; `vaultdom` is private
# and holds the `vaultasset` ones.
SECRET = "vaultasset"


@dataclass
class Callers:
    outsider: httpx.Client  # a global viewer with no team
    insider: httpx.Client  # a global viewer in the owning team
    domain_admin: httpx.Client  # the same, with an admin token (the domain role allows it)


@pytest.fixture
def callers(
    admin: httpx.Client, live: LiveServer, make_settings: Callable[..., Settings]
) -> Iterator[Callers]:
    assert admin.put("/teams/vaultkeepers", json={"display_name": "Keepers"}).status_code == 201
    domain = {
        "owner_team": "vaultkeepers",
        "private": True,
        "rules": [{"kind": "namespace", "value": SECRET}],
    }
    assert admin.put("/domains/vaultdom", json=domain).status_code == 201
    for asset in ("open.a", "open.b", "vaultasset.mid", "vaultasset.solo"):
        made = admin.post("/assets", json={"id": asset, "name": f"{asset} name", "type": "table"})
        assert made.status_code == 201, made.text
    for source, target in (("open.a", "vaultasset.mid"), ("vaultasset.mid", "open.b")):
        assert admin.post("/lineage", json={"source": source, "target": target}).status_code == 201
    settings = make_settings()
    outsider = make_user(admin, "outsider", "viewer")
    insider = make_user(admin, "insider", "viewer")
    assert admin.put(f"/teams/vaultkeepers/members/{insider['id']}").status_code == 204
    people = Callers(
        outsider=client_for(live, token_of(settings, outsider["id"], "read")),
        insider=client_for(live, token_of(settings, insider["id"], "read")),
        domain_admin=client_for(live, token_of(settings, insider["id"], "admin")),
    )
    yield people
    for client in (people.outsider, people.insider, people.domain_admin):
        client.close()


def _query(client: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    answer = client.post("/query", json=body)
    assert answer.status_code == 200, answer.text
    return answer


def test_a_private_asset_is_never_a_start_or_a_filter_match(callers: Callers) -> None:
    by_id = {"start": {"ids": ["open.a", "vaultasset.mid"]}, "return": "nodes"}
    outsider = _query(callers.outsider, by_id)
    assert SECRET not in outsider.text
    assert [n["id"] for n in outsider.json()["nodes"]] == ["open.a"]
    assert len(_query(callers.insider, by_id).json()["nodes"]) == 2
    by_name = {"start": {"where": {"name_contains": "mid"}}, "return": "nodes"}
    assert _query(callers.outsider, by_name).json()["nodes"] == []
    assert [n["id"] for n in _query(callers.insider, by_name).json()["nodes"]] == ["vaultasset.mid"]


@pytest.mark.parametrize("form", ["nodes", "edges", "graph", "count"])
def test_a_traversal_leaves_private_assets_out_and_walks_on_past_them(
    callers: Callers, form: str
) -> None:
    body = {
        "start": {"ids": ["open.a"]},
        "traverse": {"direction": "downstream", "max_depth": 5},
        "return": form,
    }
    outsider = _query(callers.outsider, body)
    insider = _query(callers.insider, body).json()
    assert SECRET not in outsider.text
    shown = outsider.json()
    if form in ("nodes", "graph"):
        assert [(n["id"], n["distance"]) for n in shown["nodes"]] == [("open.b", 2)]
        assert [n["id"] for n in insider["nodes"]] == ["vaultasset.mid", "open.b"]
    if form in ("edges", "graph"):
        assert shown["edges"] == []  # open.b's one edge comes from the hidden asset
        assert [(e["source"], e["target"]) for e in insider["edges"]] == [
            ("vaultasset.mid", "open.b")
        ]
    if form == "count":
        assert (shown["count"], insider["count"]) == (1, 2)


def test_a_path_through_a_private_asset_shows_a_stand_in(callers: Callers) -> None:
    body = {"path": {"from": "open.a", "to": "open.b"}, "return": "paths"}
    outsider = _query(callers.outsider, body)
    assert SECRET not in outsider.text
    assert outsider.json()["paths"] == [["open.a", "redacted:1", "open.b"]]
    assert _query(callers.insider, body).json()["paths"] == [["open.a", "vaultasset.mid", "open.b"]]
    as_nodes = _query(callers.outsider, {**body, "return": "nodes"})
    assert [n["id"] for n in as_nodes.json()["nodes"]] == ["open.a", "open.b"]


def test_a_path_to_a_private_asset_is_found_as_to_an_unknown_one(callers: Callers) -> None:
    body = {"path": {"from": "open.a", "to": "vaultasset.mid"}, "return": "paths"}
    hidden = _query(callers.outsider, body)
    unknown = _query(callers.outsider, {**body, "path": {"from": "open.a", "to": "nope"}})
    assert hidden.json() == unknown.json() == {"paths": [], "truncated": False, "next_cursor": None}
    assert _query(callers.insider, body).json()["paths"] == [["open.a", "vaultasset.mid"]]


def test_a_domain_admin_who_is_a_global_viewer_is_no_administrator(callers: Callers) -> None:
    me = callers.domain_admin.get("/me")
    assert me.status_code == 200 and "admin" in me.json()["scopes"]
    for method, path, body in (
        ("POST", "/query/cypher", {"query": "MATCH (a:Asset) RETURN a.id"}),
        ("GET", "/users", None),
        ("GET", "/tokens", None),
        ("POST", "/webhooks", {"url": "https://example.com/hook", "events": ["*"]}),
    ):
        answer = callers.domain_admin.request(method, path, json=body)
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["code"] == "insufficient_scope"
        assert SECRET not in answer.text
