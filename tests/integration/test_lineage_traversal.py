"""Lineage reads: fewest-hop distances, cycles, limits, and cost that never
follows the number of paths."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import neo4j

from service import cypher
from service.domain.lineage_pages import After, Filters, page_params
from service.models.lineage import LineageGraph
from tests.support import plans


def _edges(client: httpx.Client, pairs: list[tuple[str, str]]) -> None:
    response = client.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in pairs])
    assert response.status_code == 200, response.text


def _nodes(graph: dict[str, Any]) -> dict[str, tuple[int, str]]:
    return {n["id"]: (n["distance"], n["direction"]) for n in graph["nodes"]}


WAREHOUSE = [
    ("raw.a", "stg.a"),
    ("raw.b", "stg.b"),
    ("stg.a", "fct"),
    ("stg.b", "fct"),
    ("fct", "mart"),
    ("mart", "dash"),
    ("raw.a", "fct"),
]


def test_downstream_distances_are_fewest_hops(writer: httpx.Client) -> None:
    _edges(writer, WAREHOUSE)
    graph = writer.get("/lineage/raw.a/downstream", params={"depth": 10}).json()
    assert graph["root"] == "raw.a" and graph["direction"] == "downstream" and graph["depth"] == 10
    assert _nodes(graph) == {
        "raw.a": (0, "root"),
        "stg.a": (1, "downstream"),
        "fct": (1, "downstream"),
        "mart": (2, "downstream"),
        "dash": (3, "downstream"),
    }
    assert graph["nodes"][0]["id"] == "raw.a"
    assert {(e["source"], e["target"]) for e in graph["edges"]} == {
        ("raw.a", "stg.a"),
        ("raw.a", "fct"),
        ("stg.a", "fct"),
        ("fct", "mart"),
        ("mart", "dash"),
    }
    assert graph["truncated"] is False


def test_depth_one_returns_exactly_the_direct_neighbours(writer: httpx.Client) -> None:
    _edges(writer, WAREHOUSE)
    down = writer.get("/lineage/fct/downstream", params={"depth": 1}).json()
    assert _nodes(down) == {"fct": (0, "root"), "mart": (1, "downstream")}
    up = writer.get("/lineage/fct/upstream", params={"depth": 1}).json()
    assert _nodes(up) == {
        "fct": (0, "root"),
        "stg.a": (1, "upstream"),
        "stg.b": (1, "upstream"),
        "raw.a": (1, "upstream"),
    }
    assert {(e["source"], e["target"]) for e in up["edges"]} == {
        ("stg.a", "fct"),
        ("stg.b", "fct"),
        ("raw.a", "fct"),
        ("raw.a", "stg.a"),
    }


def test_both_directions_and_the_default(writer: httpx.Client) -> None:
    _edges(writer, WAREHOUSE)
    graph = writer.get("/lineage/fct", params={"depth": 1}).json()
    assert graph["direction"] == "both"
    assert _nodes(graph)["mart"] == (1, "downstream") and _nodes(graph)["stg.b"] == (1, "upstream")
    default = writer.get("/lineage/fct").json()
    LineageGraph.model_validate(default)  # the documented shape, placeholders included
    placeholder = next(n for n in default["nodes"] if n["id"] == "raw.b")
    assert placeholder["placeholder"] is True and placeholder["name"] == "raw.b"
    assert default["depth"] == 5 and "raw.b" in _nodes(default) and "dash" in _nodes(default)
    assert ("fct", "mart") in {(e["source"], e["target"]) for e in default["edges"]}


def test_a_cycle_terminates_with_each_node_once(writer: httpx.Client) -> None:
    _edges(writer, [("a", "b"), ("b", "c"), ("c", "a")])
    graph = writer.get("/lineage/a/downstream", params={"depth": 50}).json()
    assert _nodes(graph) == {"a": (0, "root"), "b": (1, "downstream"), "c": (2, "downstream")}
    assert len(graph["edges"]) == 3
    both = writer.get("/lineage/a", params={"depth": 50}).json()
    # b and c are both up- and downstream of a: each is kept once, at its fewer hops,
    # and b -> c joins two sides, so it belongs to neither walk.
    assert _nodes(both) == {"a": (0, "root"), "b": (1, "downstream"), "c": (1, "upstream")}
    assert {(e["source"], e["target"]) for e in both["edges"]} == {("a", "b"), ("c", "a")}


def test_a_lattice_of_2_to_the_40_paths_answers_at_once(writer: httpx.Client) -> None:
    """A walk that enumerated the paths would meet the service's query deadline and
    answer 503; how fast the walk is belongs to bench/."""
    _edges(writer, plans.lattice(40))
    down = writer.get("/lineage/top/downstream", params={"depth": 50})
    assert down.status_code == 200, down.text
    graph = down.json()
    assert len(graph["nodes"]) == 1 + 2 * 41
    assert _nodes(graph)["l40"] == (41, "downstream")
    assert len(graph["edges"]) == 2 + 4 * 40
    up = writer.get("/lineage/r40/upstream", params={"depth": 50})
    assert up.status_code == 200, up.text
    assert _nodes(up.json())["top"] == (41, "upstream")


def test_limit_truncates_nearest_first_and_says_so(writer: httpx.Client) -> None:
    _edges(
        writer, [("root", f"d1.{i}") for i in range(5)] + [("d1.0", f"d2.{i}") for i in range(5)]
    )
    graph = writer.get("/lineage/root/downstream", params={"limit": 4}).json()
    assert graph["truncated"] is True
    assert [n["id"] for n in graph["nodes"]] == ["root", "d1.0", "d1.1", "d1.2"]
    assert all(e["target"] in {"d1.0", "d1.1", "d1.2"} for e in graph["edges"])
    exact = writer.get("/lineage/root/downstream", params={"limit": 11}).json()
    assert exact["truncated"] is False and len(exact["nodes"]) == 11
    alone = writer.get("/lineage/root/downstream", params={"limit": 1}).json()
    assert [n["id"] for n in alone["nodes"]] == ["root"] and alone["truncated"] is True


def test_an_asset_without_edges_is_its_own_graph(writer: httpx.Client) -> None:
    writer.post("/assets", json={"id": "lonely", "name": "L", "type": "table", "tags": ["x"]})
    graph = writer.get("/lineage/lonely").json()
    assert graph["nodes"] == [
        {
            "id": "lonely",
            "name": "L",
            "type": "table",
            "platform": None,
            "tags": ["x"],
            "placeholder": False,
            "distance": 0,
            "direction": "root",
        }
    ]
    assert graph["edges"] == [] and graph["truncated"] is False


def test_ids_with_slashes_traverse(writer: httpx.Client) -> None:
    _edges(writer, [("s3://lake/raw/events", "warehouse.events")])
    graph = writer.get("/lineage/" + quote("s3://lake/raw/events", safe="") + "/downstream").json()
    assert [n["id"] for n in graph["nodes"]] == ["s3://lake/raw/events", "warehouse.events"]
    reverse = writer.get("/lineage/warehouse.events/upstream").json()
    assert reverse["nodes"][1]["id"] == "s3://lake/raw/events"


def test_unknown_root_is_404_and_bad_parameters_422(reader: httpx.Client) -> None:
    assert reader.get("/lineage/ghost/downstream").status_code == 404
    reader_post = reader.post("/lineage", json={"source": "a", "target": "b"})
    assert reader_post.status_code == 403
    for params, name in (
        ({"depth": 0}, "depth"),
        ({"depth": 51}, "depth"),
        ({"depth": "two"}, "depth"),
        ({"depth": "1.5"}, "depth"),
        ({"depth": ""}, "depth"),  # empty is not absent
        ({"depth": "1_0"}, "depth"),  # int() would read 10
        ({"depth": "٣"}, "depth"),  # and 3
        ({"limit": 0}, "limit"),
        ({"limit": 10_001}, "limit"),
        ({"direction": "sideways"}, "direction"),
        ({"direction": ""}, "direction"),
    ):
        response = reader.get("/lineage/x", params=params)
        assert response.status_code == 422, params
        assert response.json()["errors"][0]["loc"] == ["query", name]


def test_traversals_plan_a_pruning_breadth_first_expand(driver: neo4j.Driver) -> None:
    """Guards the linear-cost design: the planner must not enumerate paths."""
    queries = cypher.load()
    statement = queries["lineage.traverse"].statement({"depth": 50})
    params: dict[str, Any] = {
        "id": "x",
        "downstream": True,
        "upstream": True,
        "now": "2026-01-01T00:00:00Z",
        **page_params(10, After((2, False, "b"), started=True), Filters(type=("table",))),
    }
    summary = driver.execute_query("EXPLAIN " + statement, params).summary
    operators = plans.operators(summary.plan)
    walks = [op for op in operators if op.startswith("VarLengthExpand")]
    assert len(walks) == 2 and all(op.startswith("VarLengthExpand(Pruning,BFS") for op in walks), (
        operators
    )


def test_one_way_and_both_ways_order_ids_alike(writer: httpx.Client) -> None:
    """Ties and edges sort by code point, one way or both: U+FF21 before U+1F600 (Neo4j
    compares some strings by UTF-16 code unit, which would put them the other way)."""
    emoji, wide = "t\U0001f600", "t\uff21"
    _edges(writer, [("root", emoji), ("root", wide), ("src", "root"), ("src", emoji)])
    down = writer.get("/lineage/root/downstream").json()
    both = writer.get("/lineage/root").json()
    assert [n["id"] for n in down["nodes"]] == ["root", wide, emoji]
    assert [n["id"] for n in both["nodes"]] == ["root", "src", wide, emoji]
    assert [e["target"] for e in down["edges"]] == [wide, emoji]
    assert [(e["source"], e["target"]) for e in both["edges"]] == [
        ("root", wide),
        ("root", emoji),
        ("src", "root"),
    ]
