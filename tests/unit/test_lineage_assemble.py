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


def test_nodes_come_nearest_first_with_the_root_leading() -> None:
    down = [_node("b", 2, "downstream"), _node("a", 1, "downstream"), _node("c", 1, "downstream")]
    nodes, _, truncated = assemble(ROOT, down, [], [], [], limit=10)
    assert [n["id"] for n in nodes] == ["r", "a", "c", "b"]
    assert truncated is False


def test_a_node_reached_both_ways_is_kept_once_at_its_fewer_hops() -> None:
    down = [_node("x", 3, "downstream"), _node("tie", 2, "downstream")]
    up = [_node("x", 1, "upstream"), _node("tie", 2, "upstream")]
    nodes, _, _ = assemble(ROOT, down, up, [], [], limit=10)
    assert [(n["id"], n["distance"], n["direction"]) for n in nodes] == [
        ("r", 0, "root"),
        ("x", 1, "upstream"),
        ("tie", 2, "downstream"),  # a tie keeps the downstream side
    ]


def test_the_root_reached_through_a_cycle_is_not_repeated() -> None:
    nodes, _, _ = assemble(
        ROOT, [_node("a", 1, "downstream"), _node("r", 2, "downstream")], [], [], [], 10
    )
    assert [n["id"] for n in nodes] == ["r", "a"]


def test_limit_counts_the_root_and_says_when_it_cut() -> None:
    down = [_node(f"n{i}", 1, "downstream") for i in range(3)]
    nodes, edges, truncated = assemble(
        ROOT, down, [], [["r", "n0", None], ["r", "n1", None], ["r", "n2", None]], [], limit=3
    )
    assert [n["id"] for n in nodes] == ["r", "n0", "n1"] and truncated is True
    assert [(e["source"], e["target"]) for e in edges] == [("r", "n0"), ("r", "n1")]
    _, _, exact = assemble(ROOT, down, [], [], [], limit=4)
    assert exact is False


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


def test_edges_sort_by_source_then_target_even_where_one_id_prefixes_another() -> None:
    down = [_node(i, 1, "downstream") for i in ("a", "a.b", "b", "bc", "c")]
    pairs = [("a.b", "c"), ("a", "bc"), ("r", "a"), ("a", "b"), ("r", "a.b")]
    _, edges, _ = assemble(ROOT, down, [], [[s, t, None] for s, t in pairs], [], limit=10)
    assert [(e["source"], e["target"]) for e in edges] == sorted(pairs)
