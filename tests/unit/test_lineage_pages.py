"""Pages of a traversal without a database: the cursor, one page from a walk's rows,
and the hop-by-hop walk with a fan-out cap cut into pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from service.domain.cursor import encode_cursor
from service.domain.fanout import Reach, fanout_page
from service.domain.lineage import LineageView
from service.domain.lineage_pages import After, Filters, Walk, assemble_page, decode, encode, take
from service.errors import BadRequest
from service.models.lineage import LineageGraph


def _node(node_id: str, distance: int, direction: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": node_id,
        "name": node_id,
        "type": extra.get("type", "table"),
        "platform": extra.get("platform"),
        "tags": extra.get("tags", []),
        "placeholder": False,
        "distance": distance,
        "direction": direction,
    }


ROOT = _node("r", 0, "root")
WALK = Walk("r", "both", 3)


def test_a_cursor_continues_the_walk_it_was_made_for() -> None:
    after = After((2, False, "b"), None, started=True)
    assert decode(encode(WALK, after), WALK) == after
    assert decode(None, WALK) == After()


@pytest.mark.parametrize(
    ("other", "named"),
    [
        (Walk("s", "both", 3), "asset_id"),
        (Walk("r", "upstream", 3), "direction"),
        (Walk("r", "both", 4), "depth"),
        (Walk("r", "both", 3, as_of="2026-01-01T00:00:00.000Z"), "as_of"),
        (Walk("r", "both", 3, filters=Filters(tag=("pii",))), "tag"),
        (Walk("r", "both", 3, fanout=2), "fanout"),
    ],
)
def test_a_cursor_for_other_parameters_is_refused_naming_the_parameter(
    other: Walk, named: str
) -> None:
    cursor = encode(WALK, After((1, False, "a"), None, started=True))
    with pytest.raises(BadRequest) as caught:
        decode(cursor, other)
    assert caught.value.code == "invalid_cursor"
    assert caught.value.extra == {"parameter": named} and f"`{named}`" in caught.value.detail


@pytest.mark.parametrize(
    "cursor",
    [
        "not base64!",
        encode_cursor({"walk": 1, "after": 2}),
        encode_cursor({"walk": WALK.identity(), "after": {"downstream": [1]}}),
        encode_cursor(
            {"walk": WALK.identity(), "after": {"downstream": [True, "a"], "upstream": None}}
        ),
    ],
)
def test_a_cursor_that_does_not_decode_is_refused(cursor: str) -> None:
    with pytest.raises(BadRequest) as caught:
        decode(cursor, WALK)
    assert caught.value.code == "invalid_cursor"


def test_filters_given_in_another_order_are_the_same_walk() -> None:
    one = Walk("r", "both", 3, filters=Filters(tag=("a", "b")))
    two = Walk("r", "both", 3, filters=Filters(tag=("b", "a", "a")))
    after = After((1, False, "x"), None, started=True)
    assert decode(encode(one, after), two) == after


def test_the_first_page_leads_with_the_root_and_later_ones_move_each_side() -> None:
    taken = [_node("b", 1, "downstream"), _node("a", 1, "upstream"), _node("c", 2, "downstream")]
    edges: list[list[str | None]] = [
        ["r", "b", None],
        ["a", "r", "x"],
        ["b", "c", None],
        ["b", "c", None],
    ]
    pending = {"downstream": 5, "upstream": 1}
    page = assemble_page(
        WALK, ROOT, After(), taken, edges, pending, {"downstream": 0, "upstream": 2}
    )
    assert [n["id"] for n in page.nodes] == ["r", "a", "b", "c"]
    assert [(e["source"], e["target"]) for e in page.edges] == [("a", "r"), ("b", "c"), ("r", "b")]
    assert page.after == After((2, False, "c"), (1, False, "a"), started=True)
    assert page.remaining == {"downstream": 3, "upstream": 0} and page.more
    later = assemble_page(
        WALK, ROOT, page.after, [], [], {"downstream": 0, "upstream": 0}, page.hidden
    )
    assert later.nodes == [] and later.after == page.after and not later.more


def test_a_page_keeps_the_walks_order_for_positions_and_shows_code_point_order() -> None:
    """Neo4j compares some strings by UTF-16 code unit (U+1F600 before U+FF21): the
    position is the walk's last node, the nodes shown are in code-point order."""
    emoji, wide = "t\U0001f600", "t\uff21"
    walk = Walk("r", "downstream", 2)
    taken = [_node(emoji, 1, "downstream"), _node(wide, 1, "downstream")]
    page = assemble_page(walk, ROOT, After(), taken, [], {"downstream": 2}, {"downstream": 0})
    assert [n["id"] for n in page.nodes] == ["r", wide, emoji]
    assert page.after.downstream == (1, False, wide) and page.remaining == {"downstream": 0}


def test_the_root_takes_a_place_on_the_first_page_only() -> None:
    assert take(10, After()) == 9 and take(10, After(started=True)) == 10


def test_the_view_serialises_to_the_documented_shape() -> None:
    view = LineageView(
        "r",
        "downstream",
        3,
        [ROOT, _node("d", 1, "downstream")],
        [{"source": "r", "target": "d", "transformation": None}],
        True,
        next_cursor="abc",
        remaining={"downstream": 4},
        hidden={"downstream": 1},
        capped=[{"id": "r", "direction": "downstream", "shown": 1, "total": 3}],
    )
    document = LineageGraph.model_validate_json(orjson.dumps(view))
    assert document.model_dump(mode="json") == view.document()


# A graph with a cycle through the root, diamonds and both directions.
GRAPH = [
    ("r", "a"), ("r", "b"), ("a", "c"), ("b", "c"), ("c", "d"), ("d", "r"),
    ("u1", "r"), ("u2", "u1"), ("u3", "u1"), ("u3", "u2"), ("c", "e"), ("e", "f"),
    ("u2", "a"),
]  # fmt: skip
KINDS = {"c": "view", "e": "view", "u2": "view"}


def _walk_in_memory(walk: Walk) -> list[Reach]:
    """The store's hop-by-hop walk over GRAPH, as the hop statement would answer."""
    reaches = []
    for side in walk.sides:
        reach, frontier = Reach(side, "r"), ["r"]
        for distance in range(1, walk.depth + 1):
            fresh: list[str] = []
            for node_id in frontier:
                near = sorted(
                    t if side == "downstream" else s
                    for s, t in GRAPH
                    if (s if side == "downstream" else t) == node_id
                )
                kept = [
                    {
                        "node": {
                            k: v
                            for k, v in _node(n, 0, "", type=KINDS.get(n, "table")).items()
                            if k not in ("distance", "direction")
                        },
                        "owners": ["ann"] if n in ("d", "u3") else [],
                        "transformation": None,
                    }
                    for n in near[: walk.fanout]
                ]
                fresh += reach.expand(node_id, kept, len(near), distance)
            frontier = fresh
        reaches.append(reach)
    return reaches


def _pages(walk: Walk, limit: int) -> Iterator[Any]:
    after = After()
    while True:
        page = fanout_page(walk, ROOT, _walk_in_memory(walk), after, take(limit, after))
        yield page
        if not page.more:
            return
        after = decode(encode(walk, page.after), walk)


@pytest.mark.parametrize("limit", [1, 2, 3, 100])
def test_pages_give_every_node_and_edge_once_in_distance_then_id_order(limit: int) -> None:
    walk = Walk("r", "both", 5, fanout=10)
    pages = list(_pages(walk, limit))
    nodes = [n for p in pages for n in p.nodes]
    edges = [(e["source"], e["target"]) for p in pages for e in p.edges]
    ids = [n["id"] for n in nodes]
    assert ids[0] == "r" and len(ids) == len(set(ids))
    assert set(ids) == {s for pair in GRAPH for s in pair}
    # c -> d and u2 -> a join the two sides: an edge stays on its side
    assert len(edges) == len(set(edges)) and set(edges) == set(GRAPH) - {("c", "d"), ("u2", "a")}
    by_id = {n["id"]: (n["distance"], n["direction"]) for n in nodes}
    assert by_id["d"] == (1, "upstream") and by_id["c"] == (2, "downstream")
    keys = [(n["distance"], n["id"]) for n in nodes[1:]]
    assert keys == sorted(keys)
    for page in pages:
        assert len(page.nodes) <= limit
    assert pages[-1].remaining == {"downstream": 0, "upstream": 0}


def test_remaining_counts_down_to_nothing_page_by_page() -> None:
    walk = Walk("r", "downstream", 5, fanout=10)
    pages = list(_pages(walk, 2))
    left = [sum(p.remaining.values()) for p in pages]
    assert left == sorted(left, reverse=True) and left[-1] == 0
    assert left[0] == sum(len(p.nodes) for p in pages[1:])


def test_filters_hide_nodes_the_walk_still_goes_through() -> None:
    walk = Walk("r", "downstream", 5, filters=Filters(type=("view",)), fanout=10)
    (page,) = _pages(walk, 100)
    assert [(n["id"], n["distance"]) for n in page.nodes] == [("r", 0), ("c", 2), ("e", 3)]
    assert page.hidden == {"downstream": 4}  # a, b, d, f
    assert [(e["source"], e["target"]) for e in page.edges] == [("c", "e")]
    owned = Walk("r", "both", 5, filters=Filters(owner=("ann",), type=("table",)), fanout=10)
    (page,) = _pages(owned, 100)
    assert [n["id"] for n in page.nodes] == ["r", "d", "u3"]


def test_a_fanout_cut_is_counted_once_on_the_page_of_its_node() -> None:
    walk = Walk("r", "downstream", 5, fanout=1)
    pages = list(_pages(walk, 2))
    ids = [n["id"] for p in pages for n in p.nodes]
    assert ids == ["r", "a", "c", "d"]  # b is cut away at the root, e at c
    caps = [c for p in pages for c in p.capped]
    assert caps == [
        {"id": "r", "direction": "downstream", "shown": 1, "total": 2},
        {"id": "c", "direction": "downstream", "shown": 1, "total": 2},
    ]
    assert pages[0].capped[0]["id"] == "r"
