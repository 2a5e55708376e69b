"""Property tests: on random small graphs (cycles included) the service answers random
valid queries exactly as a plain-Python reference evaluation of the query language
does. The reference is written from the documented semantics, not from the Cypher:

- `distance` is the fewest hops from any start asset over paths whose intermediate
  assets pass `through`; a start asset counts only when another start reaches it
  (or at 0 with `min_depth` 0); `both` is upstream and downstream, never a zig-zag;
- `where` picks the returned assets; `edges` are the lineage among them;
- a path query answers the shortest paths whose intermediate assets pass `through`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import neo4j
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

IDS = [f"a{i}" for i in range(8)]
TYPES = ["table", "view", "dashboard"]
PLATFORMS = ["pg", "sf"]
TAGS = ["x", "y", "z"]
OWNERS = ["ann", "bob"]
NAMES = ["Orders", "orders_v2", "Revenue", "CUST"]
VALUES: list[Any] = [1, 2, 1.0, "v", "w", True, False]
FILTER_FIELDS = [
    "type",
    "platform",
    "tags_all",
    "tags_any",
    "owner",
    "id_prefix",
    "name_contains",
    "placeholder",
    "has_upstream",
    "has_downstream",
    "properties",
]


@dataclass
class Asset:
    id: str
    name: str
    type: str = "unknown"
    platform: str | None = None
    tags: list[str] = field(default_factory=list)
    owners: list[str] = field(default_factory=list)
    properties: dict[str, Any] = field(default_factory=dict)
    placeholder: bool = False


@dataclass
class Graph:
    assets: dict[str, Asset]
    edges: set[tuple[str, str]]

    def neighbours(self, node: str, side: str) -> list[str]:
        if side == "downstream":
            return sorted(t for s, t in self.edges if s == node)
        return sorted(s for s, t in self.edges if t == node)


# The reference evaluation


def _same(a: Any, b: Any) -> bool:
    """Cypher equality: a boolean equals only a boolean; numbers compare as numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def matches(graph: Graph, where: dict[str, Any] | None, node: str) -> bool:
    if where is None:
        return True
    a = graph.assets[node]
    checks: dict[str, Callable[[Any], bool]] = {
        "type": lambda v: a.type in [t.lower() for t in _listed(v)],
        "platform": lambda v: a.platform in _listed(v),
        "tags_all": lambda v: all(t.lower() in a.tags for t in _listed(v)),
        "tags_any": lambda v: any(t.lower() in a.tags for t in _listed(v)),
        "owner": lambda v: any(o in a.owners for o in _listed(v)),
        "id_prefix": lambda v: any(a.id.startswith(p) for p in _listed(v)),
        "name_contains": lambda v: v.lower() in a.name.lower(),
        "placeholder": lambda v: a.placeholder == v,
        "has_upstream": lambda v: bool(graph.neighbours(node, "upstream")) == v,
        "has_downstream": lambda v: bool(graph.neighbours(node, "downstream")) == v,
        "properties": lambda v: all(
            key in a.properties and any(_same(a.properties[key], x) for x in _listed(want))
            for key, want in v.items()
        ),
    }
    return all(checks[key](value) for key, value in where.items())


def _sides(direction: str) -> list[str]:
    return ["downstream", "upstream"] if direction == "both" else [direction]


def _walk(graph: Graph, start: str, side: str, depth: int, through: Any) -> dict[str, int]:
    """Breadth-first: an asset other than the start is passed only if it passes `through`."""
    distance = {start: 0}
    frontier = [start]
    for hops in range(1, depth + 1):
        following = []
        for node in frontier:
            if node != start and not matches(graph, through, node):
                continue
            for nxt in graph.neighbours(node, side):
                if nxt not in distance:
                    distance[nxt] = hops
                    following.append(nxt)
        frontier = following
    del distance[start]
    return distance


def reference_nodes(graph: Graph, query: dict[str, Any]) -> list[tuple[int, str]]:
    start = query["start"]
    if "ids" in start:
        starts = sorted({i for i in start["ids"] if i in graph.assets})
    else:
        starts = sorted(n for n in graph.assets if matches(graph, start["where"], n))
    walk = query.get("traverse")
    if walk is None:
        return [(0, s) for s in starts]
    best: dict[str, int] = {}
    for s, side in itertools.product(starts, _sides(walk.get("direction", "both"))):
        found = _walk(graph, s, side, walk.get("max_depth", 5), walk.get("through"))
        for node, hops in found.items():
            best[node] = min(hops, best.get(node, hops))
    if walk.get("min_depth", 1) == 0:
        best.update({s: 0 for s in starts})
    low = walk.get("min_depth", 1)
    return sorted(
        (d, n) for n, d in best.items() if d >= low and matches(graph, walk.get("where"), n)
    )


def reference_paths(graph: Graph, path: dict[str, Any]) -> list[list[str]]:
    """Every shortest path (of the shorter direction, for `both`)."""
    found: list[list[str]] = []
    if path["from"] not in graph.assets or path["to"] not in graph.assets:
        return found
    for side in _sides(path.get("direction", "downstream")):
        found += _shortest(graph, path, side)
    if not found:
        return found
    shortest = min(len(p) for p in found)
    return sorted(p for p in found if len(p) == shortest)


def _shortest(graph: Graph, path: dict[str, Any], side: str) -> list[list[str]]:
    reached = _walk(graph, path["from"], side, path.get("max_depth", 10), path.get("through"))
    if path["to"] not in reached:
        return []
    length = reached[path["to"]]
    paths = [[path["from"]]]
    for _ in range(length):
        paths = [
            [*p, nxt]
            for p in paths
            if len(p) == 1 or matches(graph, path.get("through"), p[-1])
            for nxt in graph.neighbours(p[-1], side)
        ]
    return [p for p in paths if p[-1] == path["to"]]


def induced(graph: Graph, nodes: Iterable[str]) -> list[tuple[str, str]]:
    kept = set(nodes)
    return sorted((s, t) for s, t in graph.edges if s in kept and t in kept)


# Strategies


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    ids = IDS[: draw(st.integers(2, len(IDS)))]
    pair = st.sampled_from(ids).flatmap(
        lambda a: st.tuples(st.just(a), st.sampled_from([b for b in ids if b != a]))
    )
    edges = draw(st.sets(pair, min_size=len(ids) - 1, max_size=2 * len(ids)))
    touched = {n for e in edges for n in e}
    placeholders = draw(st.sets(st.sampled_from(ids)))
    assets = {}
    for node in ids:
        if node in placeholders:
            if node in touched:
                assets[node] = Asset(node, node, placeholder=True)
            continue
        assets[node] = Asset(
            node,
            draw(st.sampled_from(NAMES)),
            draw(st.sampled_from(TYPES)),
            draw(st.none() | st.sampled_from(PLATFORMS)),
            sorted(draw(st.sets(st.sampled_from(TAGS)))),
            sorted(draw(st.sets(st.sampled_from(OWNERS)))),
            draw(st.dictionaries(st.sampled_from(["k", "j"]), st.sampled_from(VALUES))),
        )
    return Graph(assets, edges)


def _one_or_many(values: list[Any]) -> st.SearchStrategy[Any]:
    return st.sampled_from(values) | st.lists(st.sampled_from(values), min_size=1, max_size=2)


FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "type": _one_or_many([*TYPES, "unknown", "TABLE"]),
    "platform": _one_or_many(PLATFORMS),
    "tags_all": st.lists(st.sampled_from([*TAGS, "Y"]), min_size=1, max_size=2),
    "tags_any": st.lists(st.sampled_from(TAGS), min_size=1, max_size=2),
    "owner": _one_or_many(OWNERS),
    "id_prefix": _one_or_many(["a", "a1", "a2", "b"]),
    "name_contains": st.sampled_from(["ord", "REV", "_v", "q"]),
    "placeholder": st.booleans(),
    "has_upstream": st.booleans(),
    "has_downstream": st.booleans(),
    "properties": st.dictionaries(
        st.sampled_from(["k", "j"]), _one_or_many(VALUES), min_size=1, max_size=1
    ),
}


@st.composite
def filters(draw: st.DrawFn) -> dict[str, Any]:
    size = draw(st.sampled_from([0, 1, 1, 2]))
    keys = draw(st.lists(st.sampled_from(FILTER_FIELDS), min_size=size, max_size=size, unique=True))
    return {key: draw(FIELD_VALUES[key]) for key in keys}


@st.composite
def start_queries(draw: st.DrawFn, ids: list[str]) -> dict[str, Any]:
    query: dict[str, Any] = {
        "start": draw(
            st.fixed_dictionaries(
                {"ids": st.lists(st.sampled_from([*ids, "ghost"]), min_size=1, max_size=3)}
            )
            | st.fixed_dictionaries({"where": filters()})
        ),
        "return": draw(st.sampled_from(["nodes", "edges", "graph", "count"])),
        "limit": draw(st.sampled_from([1, 2, 3, 500])),
    }
    if draw(st.integers(0, 4)):
        most = draw(st.integers(1, 4))
        walk: dict[str, Any] = {
            "direction": draw(st.sampled_from(["downstream", "upstream", "both"])),
            "max_depth": most,
            "min_depth": draw(st.integers(0, most)),
        }
        for key in ("where", "through"):
            if draw(st.booleans()):
                walk[key] = draw(filters())
        query["traverse"] = walk
    return query


@st.composite
def path_queries(draw: st.DrawFn, ids: list[str]) -> dict[str, Any]:
    ends = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True))
    every = draw(st.booleans())
    path: dict[str, Any] = {
        "from": ends[0],
        "to": ends[1],
        "direction": draw(st.sampled_from(["downstream", "upstream", "both"])),
        "max_depth": draw(st.integers(1, 5)),
        "all_shortest": every,
    }
    if draw(st.booleans()):
        path["through"] = draw(filters())
    forms = ["paths", "count", "nodes", "edges", "graph"] if every else ["paths", "count"]
    return {
        "path": path,
        "return": draw(st.sampled_from(forms)),
        "limit": draw(st.sampled_from([1, 2, 500])),
    }


# Loading, asking, comparing


def load(client: httpx.Client, driver: neo4j.Driver, graph: Graph) -> None:
    driver.execute_query("MATCH (a:Asset) DETACH DELETE a")
    for a in graph.assets.values():
        if a.placeholder:
            continue
        body: dict[str, Any] = {"name": a.name, "type": a.type, "tags": a.tags, "owners": a.owners}
        body["properties"] = a.properties
        if a.platform:
            body["platform"] = a.platform
        response = client.put("/assets/" + quote(a.id, safe=""), json=body)
        assert response.status_code == 201, response.text
    if graph.edges:
        bulk = [{"source": s, "target": t} for s, t in sorted(graph.edges)]
        assert client.post("/lineage/bulk", json=bulk).status_code == 200


def pages(client: httpx.Client, query: dict[str, Any]) -> list[dict[str, Any]]:
    answers = []
    body = dict(query)
    for _ in range(50):
        response = client.post("/query", json=body)
        assert response.status_code == 200, (query, response.text)
        answers.append(response.json())
        if answers[-1]["next_cursor"] is None:
            return answers
        body["cursor"] = answers[-1]["next_cursor"]
    raise AssertionError("more than 50 pages")


def _nodes(answers: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(n["distance"], n["id"]) for a in answers for n in a["nodes"]]


def _edges(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["source"], e["target"]) for e in answer["edges"]]


def check_rows(
    graph: Graph, query: dict[str, Any], answers: list[dict[str, Any]], want: list[tuple[int, str]]
) -> None:
    form, limit = query["return"], query["limit"]
    if form == "count":
        assert answers == [{"count": len(want), "next_cursor": None, **_truncation(query)}]
        return
    if form == "edges":
        got = [e for a in answers for e in _edges(a)]
        assert got == induced(graph, (n for _, n in want))
        assert all(len(a["edges"]) <= limit for a in answers)
        return
    assert _nodes(answers) == want
    for answer in answers:
        assert len(answer["nodes"]) <= limit
        for node in answer["nodes"]:
            asset = graph.assets[node["id"]]
            assert (node["type"], node["platform"], node["placeholder"]) == (
                asset.type,
                asset.platform,
                asset.placeholder,
            )
            assert sorted(node["tags"]) == asset.tags
        if form == "graph":
            assert _edges(answer) == induced(graph, (n["id"] for n in answer["nodes"]))


def _truncation(query: dict[str, Any]) -> dict[str, Any]:
    return {"truncated": False} if "path" in query else {}


EXAMPLES = settings(
    max_examples=35,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def cases(
    draw: st.DrawFn, queries: Callable[[list[str]], st.SearchStrategy[dict[str, Any]]]
) -> tuple[Graph, list[dict[str, Any]]]:
    """A graph, and 1-4 queries about the assets it holds."""
    graph = draw(graphs())
    ids = sorted(graph.assets) or ["ghost", "nobody"]
    return graph, draw(st.lists(queries(ids), min_size=1, max_size=4))


@EXAMPLES
@given(case=cases(start_queries))
def test_start_and_traverse_agree_with_the_reference(
    writer: httpx.Client, driver: neo4j.Driver, case: tuple[Graph, list[dict[str, Any]]]
) -> None:
    graph, queries = case
    load(writer, driver, graph)
    for query in queries:
        want = reference_nodes(graph, query)
        event(f"traverse={'traverse' in query} answers={'some' if want else 'none'}")
        check_rows(graph, query, pages(writer, query), want)


@EXAMPLES
@given(case=cases(path_queries))
def test_shortest_paths_agree_with_the_reference(
    writer: httpx.Client, driver: neo4j.Driver, case: tuple[Graph, list[dict[str, Any]]]
) -> None:
    graph, queries = case
    load(writer, driver, graph)
    for query in queries:
        answers = pages(writer, query)
        want = reference_paths(graph, query["path"])
        event(f"paths={'some' if want else 'none'}")
        assert all(a["truncated"] is False for a in answers)
        if query["return"] == "paths":
            got = [p for a in answers for p in a["paths"]]
            if query["path"]["all_shortest"]:
                assert sorted(got) == want, (query, got, want)
            else:
                assert len(got) == min(1, len(want)) and all(p in want for p in got), (got, want)
        elif query["return"] == "count":
            expected = len(want) if query["path"]["all_shortest"] else min(1, len(want))
            assert [a["count"] for a in answers] == [expected]
        else:
            at: dict[str, int] = {}
            for p in want:
                for i, node in enumerate(p):
                    at[node] = min(i, at.get(node, i))
            check_rows(graph, query, answers, sorted((d, n) for n, d in at.items()))
