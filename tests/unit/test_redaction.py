"""Redacted lineage as pure assembly: stand-ins keep the path, the counts and the owning
team, and nothing else of the asset; a cursor at a stand-in holds its id sealed."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

import pytest
from cryptography.fernet import Fernet

from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope
from service.domain.cursor_seal import CursorSeal
from service.domain.lineage_pages import After, Walk, decode, encode
from service.domain.redaction import hidden_domains, redact
from service.errors import BadRequest
from service.models.lineage import LineageGraph

OUTSIDER = Principal("tok_1", "t", Scope.READ, "usr_1", "editor", {"sales": "viewer"})
MEMBER = Principal("tok_2", "t", Scope.READ, "usr_2", "viewer", {"finance": "viewer"})


def node(asset_id: str, distance: int, domain: str | None = None, private: bool = False) -> Any:
    return {
        "id": asset_id,
        "name": f"{asset_id} name",
        "type": "table",
        "platform": "pg",
        "tags": ["pii"],
        "placeholder": False,
        "distance": distance,
        "direction": "root" if distance == 0 else "downstream",
        "domain": domain,
        "private": private,
    }


NODES = [
    node("raw", 0),
    node("fin.secret", 1, "finance", True),
    node("sales.orders", 1, "sales"),
    node("fin.report", 2, "finance", True),
]
EDGES: list[dict[str, Any]] = [
    {"source": "raw", "target": "fin.secret", "transformation": "select * from fin.secret"},
    {"source": "fin.secret", "target": "fin.report", "transformation": None},
    {"source": "raw", "target": "sales.orders", "transformation": "copy"},
]


def test_hidden_nodes_become_numbered_stand_ins_with_their_team_and_place() -> None:
    assert hidden_domains(OUTSIDER, NODES) == {"finance"}
    shown = redact(OUTSIDER, NODES, EDGES, {"finance": "fin"})
    assert shown.count == 2
    assert [n["id"] for n in shown.nodes] == ["raw", "redacted:1", "sales.orders", "redacted:2"]
    first = shown.nodes[1]
    assert first == {
        "id": "redacted:1",
        "redacted": True,
        "team": "fin",
        "name": "redacted:1",
        "type": "redacted",
        "platform": None,
        "tags": [],
        "placeholder": False,
        "distance": 1,
        "direction": "downstream",
    }
    assert shown.edges == [
        {"source": "raw", "target": "redacted:1", "transformation": None},
        {"source": "redacted:1", "target": "redacted:2", "transformation": None},
        {"source": "raw", "target": "sales.orders", "transformation": "copy"},
    ]
    assert "fin.secret" not in repr((shown.nodes, shown.edges))


def test_nothing_is_redacted_for_a_member_and_the_place_keys_are_dropped() -> None:
    shown = redact(MEMBER, NODES, EDGES, {})
    assert shown.count == 0
    assert [n["id"] for n in shown.nodes] == [n["id"] for n in NODES]
    assert all("domain" not in n and "private" not in n for n in shown.nodes)
    assert redact(None, NODES, EDGES, {}).count == 0


def _raw(cursor: str) -> bytes:
    return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))


KEY = 734_019_522_881  # a stand-in's shuffled key


def test_a_cursor_at_a_stand_in_holds_its_key_sealed_and_continues_after_it() -> None:
    seal = CursorSeal([Fernet.generate_key().decode()])
    walk = Walk("raw", "downstream", 3)
    after = After(downstream=(1, True, KEY), started=True)
    cursor = encode(walk, after, seal)
    assert str(KEY).encode() not in _raw(cursor)
    assert decode(cursor, walk, seal) == after
    plain = encode(walk, After(downstream=(1, False, "sales.orders"), started=True), seal)
    assert b"sales.orders" in _raw(plain)


def test_a_sealed_cursor_from_another_key_is_refused() -> None:
    walk = Walk("raw", "downstream", 3)
    cursor = encode(
        walk, After(downstream=(1, True, KEY)), CursorSeal([Fernet.generate_key().decode()])
    )
    with pytest.raises(BadRequest):
        decode(cursor, walk, CursorSeal([Fernet.generate_key().decode()]))


def test_a_cursor_whose_stand_in_position_holds_a_hidden_id_is_from_the_earlier_order() -> None:
    """Before stand-ins had keys, a stand-in's position sealed its id: where that stopped
    among stand-ins ordered by key cannot be told, so the walk starts again."""
    seal = CursorSeal([Fernet.generate_key().decode()])
    walk = Walk("raw", "downstream", 3)
    state = json.loads(_raw(encode(walk, After(downstream=(1, True, KEY), started=True), seal)))
    state["after"]["downstream"][2] = seal.seal("fin.secret")
    earlier = base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")
    with pytest.raises(BadRequest, match="earlier version"):
        decode(earlier, walk, seal)
    readable_only = encode(walk, After(downstream=(1, False, "sales.orders"), started=True), seal)
    assert decode(readable_only, walk, seal).downstream == (1, False, "sales.orders")


def test_an_edge_to_a_hidden_node_of_an_earlier_page_names_a_stand_in() -> None:
    page = [node("fin.report", 2, "finance", True), node("sales.x", 2, "sales")]
    edges: list[dict[str, Any]] = [
        {"source": "fin.secret", "target": "fin.report", "transformation": None},
        {"source": "sales.orders", "target": "sales.x", "transformation": "t"},
    ]
    earlier = {
        "fin.secret": {"domain": "finance", "private": True},
        "sales.orders": {"domain": "sales", "private": False},
    }
    shown = redact(OUTSIDER, page, edges, {"finance": "fin"}, earlier)
    assert shown.count == 1
    assert shown.edges == [
        {"source": "redacted:2", "target": "redacted:1", "transformation": None},
        {"source": "sales.orders", "target": "sales.x", "transformation": "t"},
    ]


def test_hidden_ends_of_earlier_pages_are_numbered_in_a_fresh_order_per_answer() -> None:
    """Not by id, which would tell how the hidden ids sort: in `arrange`'s order, by
    default a new random one for each answer."""
    page = [node("sales.x", 2, "sales")]
    ends = ("fin.a", "fin.b", "fin.c")
    edges = [{"source": e, "target": "sales.x", "transformation": None} for e in ends]
    earlier = {e: {"domain": "finance", "private": True} for e in ends}

    def reverse(ids: Sequence[str]) -> list[str]:
        return list(reversed(ids))

    shown = redact(OUTSIDER, page, edges, {"finance": "fin"}, earlier, reverse)
    assert shown.renamed == {"fin.c": "redacted:1", "fin.b": "redacted:2", "fin.a": "redacted:3"}
    numbered = {tuple(redact(OUTSIDER, page, edges, {}, earlier).renamed) for _ in range(200)}
    assert len(numbered) > 1 and all(sorted(order) == list(ends) for order in numbered)


def test_a_stand_in_is_a_documented_node() -> None:
    shown = redact(OUTSIDER, NODES, EDGES, {"finance": "fin"})
    view = {
        "root": "raw",
        "direction": "downstream",
        "depth": 3,
        "nodes": shown.nodes,
        "edges": shown.edges,
        "truncated": False,
        "next_cursor": None,
        "remaining": {"downstream": 0},
        "hidden": {"downstream": 0},
        "capped": [],
        "redacted": shown.count,
    }
    document = LineageGraph.model_validate(view)
    assert document.model_dump(mode="json") == view
