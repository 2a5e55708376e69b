"""Complete traversal answers: pages that together hold every node and edge once,
counts of what is left, filters that walk through what they hide, a fan-out cap, and
cursors refused for other parameters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service import clock
from service.models.lineage import LineageGraph
from tests.support.writes import put_asset

# Cycles (r -> a -> c -> d -> r, u2 -> u1 -> r), diamonds (r -> a|b -> c, u3 -> u1|u2)
# and both directions around r, an edge joining the two sides (c -> d, d upstream).
GRAPH = [
    ("r", "a"), ("r", "b"), ("a", "c"), ("b", "c"), ("c", "d"), ("d", "r"),
    ("u1", "r"), ("u2", "u1"), ("u3", "u1"), ("u3", "u2"), ("c", "e"), ("e", "f"),
    ("u2", "a"), ("f", "g"), ("b", "g"),
]  # fmt: skip


def _edges(client: httpx.Client, pairs: list[tuple[str, str]]) -> None:
    response = client.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in pairs])
    assert response.status_code == 200, response.text


def _pages(client: httpx.Client, path: str, **params: Any) -> Iterator[dict[str, Any]]:
    cursor = None
    while True:
        response = client.get(path, params={**params, "cursor": cursor} if cursor else params)
        assert response.status_code == 200, response.text
        page = response.json()
        LineageGraph.model_validate(page)
        yield page
        cursor = page["next_cursor"]
        assert page["truncated"] is (cursor is not None)
        if cursor is None:
            return


def _whole(client: httpx.Client, path: str, **params: Any) -> dict[str, Any]:
    """The neighbourhood in one answer, to compare pages with."""
    answer: dict[str, Any] = client.get(path, params={**params, "limit": 10_000}).json()
    assert answer["next_cursor"] is None
    return answer


@pytest.mark.parametrize("limit", [1, 2, 3, 5])
@pytest.mark.parametrize(
    ("path", "direction"),
    [("/lineage/r", "both"), ("/lineage/r/downstream", None), ("/lineage/r/upstream", None)],
)
def test_pages_return_every_node_and_edge_once_nearest_first(
    writer: httpx.Client, path: str, direction: str | None, limit: int
) -> None:
    _edges(writer, GRAPH)
    asked = {"depth": 10, **({"direction": direction} if direction else {})}
    whole = _whole(writer, path, **asked)
    pages = list(_pages(writer, path, limit=limit, **asked))
    nodes = [n for p in pages for n in p["nodes"]]
    edges = [(e["source"], e["target"]) for p in pages for e in p["edges"]]
    assert nodes == whole["nodes"]  # root first, then (distance, id) across pages
    assert len(edges) == len(set(edges))
    assert set(edges) == {(e["source"], e["target"]) for e in whole["edges"]}
    assert all(len(p["nodes"]) <= limit for p in pages)
    assert all(p["root"] == "r" for p in pages) and pages[0]["nodes"][0]["id"] == "r"
    assert all(n["id"] != "r" for p in pages[1:] for n in p["nodes"])
    for i, page in enumerate(pages):  # what is left is what the later pages hold
        later = [n for p in pages[i + 1 :] for n in p["nodes"]]
        for side, left in page["remaining"].items():
            assert left == sum(1 for n in later if n["direction"] == side)
        assert page["hidden"] == dict.fromkeys(page["remaining"], 0)
        assert page["capped"] == []


def test_both_ways_a_node_comes_once_at_its_fewer_hops(writer: httpx.Client) -> None:
    _edges(writer, GRAPH)
    pages = list(_pages(writer, "/lineage/r", depth=10, limit=2))
    found = {n["id"]: (n["distance"], n["direction"]) for p in pages for n in p["nodes"]}
    assert found["d"] == (1, "upstream") and found["c"] == (2, "downstream")
    assert set(pages[0]["remaining"]) == {"downstream", "upstream"}
    joining = {(e["source"], e["target"]) for p in pages for e in p["edges"]}
    assert ("c", "d") not in joining  # an edge between the two sides is on neither


def test_an_edge_comes_with_the_page_of_its_later_end(writer: httpx.Client) -> None:
    _edges(writer, [("r", "a"), ("r", "b"), ("a", "b"), ("b", "c")])
    first, second = _pages(writer, "/lineage/r/downstream", limit=2)
    assert [n["id"] for n in first["nodes"]] == ["r", "a"]
    assert [(e["source"], e["target"]) for e in first["edges"]] == [("r", "a")]
    assert [n["id"] for n in second["nodes"]] == ["b", "c"]
    assert [(e["source"], e["target"]) for e in second["edges"]] == [
        ("a", "b"),
        ("b", "c"),
        ("r", "b"),
    ]
    assert second["remaining"] == {"downstream": 0}


def test_limit_may_change_between_pages(writer: httpx.Client) -> None:
    _edges(writer, [("r", f"n{i}") for i in range(6)])
    first = writer.get("/lineage/r/downstream", params={"limit": 2}).json()
    rest = writer.get(
        "/lineage/r/downstream", params={"limit": 10, "cursor": first["next_cursor"]}
    ).json()
    assert [n["id"] for n in first["nodes"] + rest["nodes"]] == ["r"] + [f"n{i}" for i in range(6)]
    assert first["remaining"] == {"downstream": 5} and rest["next_cursor"] is None


@pytest.mark.parametrize(
    ("path", "changed", "named"),
    [
        ("/lineage/s/downstream", {}, "asset_id"),
        ("/lineage/r/downstream", {"depth": 4}, "depth"),
        ("/lineage/r/upstream", {}, "direction"),
        ("/lineage/r/downstream", {"tag": "pii"}, "tag"),
        ("/lineage/r/downstream", {"fanout": 3}, "fanout"),
    ],
)
def test_a_cursor_for_other_parameters_is_400_naming_the_parameter(
    writer: httpx.Client, path: str, changed: dict[str, Any], named: str
) -> None:
    _edges(writer, [("r", "a"), ("r", "b"), ("r", "c"), ("s", "a")])
    cursor = writer.get("/lineage/r/downstream", params={"limit": 2}).json()["next_cursor"]
    response = writer.get(path, params={"limit": 2, "cursor": cursor, **changed})
    assert response.status_code == 400, response.text
    problem = response.json()
    assert problem["code"] == "invalid_cursor" and problem["parameter"] == named
    assert f"`{named}`" in problem["detail"]


@pytest.mark.parametrize("cursor", ["garbage!", "e30", "eyJ3YWxrIjogMSwgImFmdGVyIjogMn0"])
def test_a_cursor_that_does_not_decode_is_400(writer: httpx.Client, cursor: str) -> None:
    _edges(writer, [("r", "a")])
    response = writer.get("/lineage/r", params={"cursor": cursor})
    assert response.status_code == 400 and response.json()["code"] == "invalid_cursor"


def test_filters_walk_through_the_assets_they_hide(writer: httpx.Client) -> None:
    """r -> mid (a view, hidden) -> far (a table, shown at its true distance)."""
    _edges(writer, [("r", "mid"), ("mid", "far"), ("r", "near"), ("up", "r")])
    put_asset(writer, "mid", type="view", tags=["pii"])
    put_asset(writer, "far", platform="snowflake", owners=["ann"])
    put_asset(writer, "near", platform="postgres", tags=["pii"], owners=["bob"])
    put_asset(writer, "up", type="view", owners=["ann"])
    tables = writer.get("/lineage/r", params={"type": "table"}).json()
    assert [(n["id"], n["distance"]) for n in tables["nodes"]] == [
        ("r", 0),
        ("near", 1),
        ("far", 2),
    ]
    assert tables["hidden"] == {"downstream": 1, "upstream": 1}
    assert [(e["source"], e["target"]) for e in tables["edges"]] == [("r", "near")]  # direct only
    either = writer.get("/lineage/r", params=[("platform", "snowflake"), ("platform", "postgres")])
    assert [n["id"] for n in either.json()["nodes"]] == ["r", "near", "far"]
    both = writer.get("/lineage/r", params={"tag": "pii", "owner": "bob"}).json()
    assert [n["id"] for n in both["nodes"]] == ["r", "near"]
    assert both["hidden"] == {"downstream": 2, "upstream": 1}
    paged = list(_pages(writer, "/lineage/r", owner="ann", limit=1))
    assert [n["id"] for p in paged for n in p["nodes"]] == ["r", "up", "far"]


def test_fanout_caps_each_expansion_and_counts_the_cut(writer: httpx.Client) -> None:
    _edges(writer, [("r", f"c{i}") for i in range(5)] + [("c0", "g0"), ("c0", "g1"), ("x", "r")])
    answer = writer.get("/lineage/r", params={"fanout": 2}).json()
    assert [(n["id"], n["distance"]) for n in answer["nodes"]] == [
        ("r", 0),
        ("c0", 1),
        ("c1", 1),
        ("x", 1),
        ("g0", 2),
        ("g1", 2),
    ]
    assert answer["capped"] == [{"id": "r", "direction": "downstream", "shown": 2, "total": 5}]
    assert {(e["source"], e["target"]) for e in answer["edges"]} == {
        ("r", "c0"),
        ("r", "c1"),
        ("x", "r"),
        ("c0", "g0"),
        ("c0", "g1"),
    }
    capped_once = list(_pages(writer, "/lineage/r/downstream", fanout=1, limit=2))
    assert [n["id"] for p in capped_once for n in p["nodes"]] == ["r", "c0", "g0"]
    assert [c for p in capped_once for c in p["capped"]] == [
        {"id": "c0", "direction": "downstream", "shown": 1, "total": 2},
        {"id": "r", "direction": "downstream", "shown": 1, "total": 5},
    ]


def test_fanout_at_least_the_degree_answers_the_whole_neighbourhood(writer: httpx.Client) -> None:
    _edges(writer, GRAPH)
    whole = _whole(writer, "/lineage/r", depth=10)
    pages = list(_pages(writer, "/lineage/r", depth=10, fanout=10, limit=3))
    assert [n for p in pages for n in p["nodes"]] == whole["nodes"]
    edges = [(e["source"], e["target"]) for p in pages for e in p["edges"]]
    assert len(edges) == len(set(edges))
    assert set(edges) == {(e["source"], e["target"]) for e in whole["edges"]}


def test_pages_as_of_a_moment_hold_that_moments_neighbourhood(writer: httpx.Client) -> None:
    _edges(writer, GRAPH)
    then = clock.now_iso()
    while clock.now_iso() == then:
        pass
    _edges(writer, [("g", "later"), ("r", "later2")])
    assert writer.delete("/lineage/edges", params={"source": "e", "target": "f"}).status_code == 204
    whole = _whole(writer, "/lineage/r", depth=10, as_of=then)
    pages = list(_pages(writer, "/lineage/r", depth=10, as_of=then, limit=2))
    nodes = [n for p in pages for n in p["nodes"]]
    assert nodes == whole["nodes"] and {"later", "later2"}.isdisjoint(n["id"] for n in nodes)
    edges = [(e["source"], e["target"]) for p in pages for e in p["edges"]]
    assert len(edges) == len(set(edges)) and ("e", "f") in edges
    assert set(edges) == {(e["source"], e["target"]) for e in whole["edges"]}
    assert pages[0]["remaining"]["downstream"] + pages[0]["remaining"]["upstream"] == len(nodes) - 2


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"fanout": 0}, "fanout"),
        ({"fanout": "x"}, "fanout"),
        ({"fanout": 2, "as_of": "2026-01-01T00:00:00Z"}, "fanout"),
        ({"tag": "pii", "as_of": "2026-01-01T00:00:00Z"}, "tag"),
        ({"type": "t" * 65}, "type"),
        ({"tag": "t" * 65}, "tag"),
        ({"owner": "o" * 257}, "owner"),
        ({"platform": [f"p{i}" for i in range(9)]}, "platform"),
    ],
)
def test_bad_walk_options_are_422_naming_the_parameter(
    reader: httpx.Client, params: dict[str, Any], named: str
) -> None:
    response = reader.get("/lineage/x", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["query", named]


def test_a_cursor_for_an_instant_in_the_future_goes_on_reading_now(writer: httpx.Client) -> None:
    _edges(writer, [("r", "a"), ("r", "b")])
    future = "2999-01-01T00:00:00Z"
    pages = list(_pages(writer, "/lineage/r/downstream", as_of=future, limit=2))
    assert [n["id"] for p in pages for n in p["nodes"]] == ["r", "a", "b"]


def test_writes_between_pages_skip_what_moved_back_and_bring_what_was_added(
    writer: httpx.Client,
) -> None:
    """As documented: positions, not a snapshot. `aa` comes closer, to a position the
    reader passed, and is skipped (an edge from this page's `c` to it still comes: the
    walk counts it among the earlier pages); `new` is added past the position and comes."""
    _edges(writer, [("r", "a"), ("r", "b"), ("b", "c"), ("c", "aa")])
    first = writer.get("/lineage/r/downstream", params={"limit": 3}).json()
    assert [n["id"] for n in first["nodes"]] == ["r", "a", "b"]
    assert first["remaining"] == {"downstream": 2}
    _edges(writer, [("r", "aa"), ("b", "new")])
    second = writer.get(
        "/lineage/r/downstream", params={"limit": 3, "cursor": first["next_cursor"]}
    ).json()
    assert [(n["id"], n["distance"]) for n in second["nodes"]] == [("c", 2), ("new", 2)]
    assert second["remaining"] == {"downstream": 0} and second["next_cursor"] is None
    assert [(e["source"], e["target"]) for e in second["edges"]] == [
        ("b", "c"),
        ("b", "new"),
        ("c", "aa"),
    ]
