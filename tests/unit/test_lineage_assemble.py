"""Assembling a traversal's answer from the one-statement walk's rows."""

from __future__ import annotations

from typing import Any

import orjson

from service.domain.lineage import LineageView, assemble
from service.models.lineage import LineageGraph


def _node(node_id: str, distance: int, direction: str) -> dict[str, Any]:
    return {
        "id": node_id,
        "name": node_id,
        "type": "table",
        "platform": None,
        "tags": [],
        "placeholder": False,
        "distance": distance,
        "direction": direction,
    }


ROOT = _node("r", 0, "root")


def test_one_side_is_answered_with_the_nodes_and_edges_the_walk_gave() -> None:
    down = [_node("a", 1, "downstream"), _node("c", 1, "downstream"), _node("b", 2, "downstream")]
    edges: list[list[str | None]] = [["a", "b", None], ["r", "a", "select"], ["r", "c", None]]
    nodes, kept, truncated = assemble(ROOT, down, [], edges, [], limit=10)
    assert [n["id"] for n in nodes] == ["r", "a", "c", "b"]
    assert kept == [
        {"source": "a", "target": "b", "transformation": None},
        {"source": "r", "target": "a", "transformation": "select"},
        {"source": "r", "target": "c", "transformation": None},
    ]
    assert truncated is False


def test_both_sides_merge_nearest_first_with_the_root_leading() -> None:
    down = [_node("a", 1, "downstream"), _node("c", 3, "downstream")]
    up = [_node("b", 1, "upstream"), _node("d", 2, "upstream")]
    nodes, _, truncated = assemble(ROOT, down, up, [], [], limit=10)
    assert [n["id"] for n in nodes] == ["r", "a", "b", "d", "c"]
    assert truncated is False


def test_a_node_reached_both_ways_is_kept_once_at_its_fewer_hops() -> None:
    down = [_node("tie", 2, "downstream"), _node("x", 3, "downstream")]
    up = [_node("x", 1, "upstream"), _node("tie", 2, "upstream")]
    nodes, _, _ = assemble(ROOT, down, up, [], [], limit=10)
    assert [(n["id"], n["distance"], n["direction"]) for n in nodes] == [
        ("r", 0, "root"),
        ("x", 1, "upstream"),
        ("tie", 2, "downstream"),  # a tie keeps the downstream side
    ]


def test_limit_counts_the_root_and_says_when_it_cut() -> None:
    """A side brings one node more than the answer keeps when there were more."""
    down = [_node(f"n{i}", 1, "downstream") for i in range(3)]
    edges = [["r", "n0", None], ["r", "n1", None]]  # among the root and the first two
    nodes, kept, truncated = assemble(ROOT, down, [], edges, [], limit=3)
    assert [n["id"] for n in nodes] == ["r", "n0", "n1"] and truncated is True
    assert [(e["source"], e["target"]) for e in kept] == [("r", "n0"), ("r", "n1")]
    _, _, exact = assemble(ROOT, down, [], [], [], limit=4)
    assert exact is False


def test_a_cut_across_both_sides_drops_the_edges_of_nodes_left_out() -> None:
    down = [_node("d1", 1, "downstream"), _node("d2", 2, "downstream")]
    up = [_node("u1", 1, "upstream"), _node("u2", 2, "upstream")]
    down_edges = [["d1", "d2", None], ["r", "d1", None]]
    up_edges = [["u1", "r", None], ["u2", "u1", None]]
    nodes, edges, truncated = assemble(ROOT, down, up, down_edges, up_edges, limit=3)
    assert [n["id"] for n in nodes] == ["r", "d1", "u1"] and truncated is True
    assert [(e["source"], e["target"]) for e in edges] == [("r", "d1"), ("u1", "r")]


def test_edges_stay_on_their_side_and_come_sorted_once() -> None:
    down = [_node("d", 1, "downstream")]
    up = [_node("u", 1, "upstream")]
    down_edges: list[list[str | None]] = [
        ["r", "d", "select"],
        ["d", "u", None],
        ["d", "gone", None],
    ]
    up_edges = [["u", "r", None], ["u", "r", None], ["elsewhere", "u", None]]
    _, edges, _ = assemble(ROOT, down, up, down_edges, up_edges, limit=10)
    assert edges == [
        {"source": "r", "target": "d", "transformation": "select"},
        {"source": "u", "target": "r", "transformation": None},
    ]


def test_the_view_serialises_to_the_documented_shape() -> None:
    nodes, edges, truncated = assemble(
        ROOT, [_node("d", 1, "downstream")], [], [["r", "d", None]], [], limit=5
    )
    view = LineageView("r", "downstream", 3, nodes, edges, truncated)
    document = LineageGraph.model_validate_json(orjson.dumps(view))
    assert document.model_dump(mode="json") == view.document()


def test_both_sides_sort_edges_by_source_then_target_even_where_one_id_prefixes_another() -> None:
    down = [_node(i, 1, "downstream") for i in ("a", "a.b", "b", "bc", "c")]
    up = [_node("u", 1, "upstream")]
    pairs = [("a.b", "c"), ("a", "bc"), ("r", "a"), ("a", "b"), ("r", "a.b")]
    down_edges = [[s, t, None] for s, t in pairs]
    _, edges, _ = assemble(ROOT, down, up, down_edges, [["u", "r", None]], limit=10)
    assert [(e["source"], e["target"]) for e in edges] == sorted([*pairs, ("u", "r")])


def test_ids_sort_by_code_point_whatever_order_neo4j_gave() -> None:
    """Neo4j compares some strings by UTF-16 code unit, which puts U+1F600 before
    U+FF21; the answer's order is code-point order either way, one side or two."""
    emoji, wide = "t\U0001f600", "t\uff21"
    down = [_node(emoji, 1, "downstream"), _node(wide, 1, "downstream")]
    down_edges = [["r", emoji, None], ["r", wide, None]]
    nodes, edges, _ = assemble(ROOT, down, [], down_edges, [], limit=10)
    assert [n["id"] for n in nodes] == ["r", wide, emoji]
    assert [e["target"] for e in edges] == [wide, emoji]
    up = [_node("u", 1, "upstream")]
    nodes, edges, _ = assemble(ROOT, down, up, down_edges, [["u", "r", None]], limit=10)
    assert [n["id"] for n in nodes] == ["r", wide, emoji, "u"]
    assert [e["target"] for e in edges] == [wide, emoji, "r"]
