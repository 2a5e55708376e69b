"""POST /query through the real HTTP stack: each construct, the documented
examples (docs/api/query.md), paging, scopes, malformed queries, and cost that never follows the number
of paths."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import neo4j
import pytest

from service.domain.query import Bounds, compile_query
from service.models.query import Query
from tests.support import plans
from tests.support.query_examples import (
    EXAMPLE_DASHBOARDS,
    EXAMPLE_HOW_MANY_FED,
    EXAMPLE_ORPHANS,
    EXAMPLE_PII_FEEDING_LOOKER,
    EXAMPLE_SHORTEST_PATH,
)

# (id, type, platform, tags, owners, properties); every other id an edge names is a
# placeholder.
ASSETS: list[tuple[str, str, str | None, list[str], list[str], dict[str, Any]]] = [
    ("src.orders", "source", "postgres", ["pii"], ["ingest-team"], {}),
    ("warehouse.orders", "table", "snowflake", ["pii"], ["data-eng"], {"tier": "gold"}),
    ("warehouse.customers", "table", "snowflake", ["pii", "crm"], ["data-eng"], {}),
    ("stg.orders", "model", "snowflake", [], ["data-eng"], {}),
    ("stg.customers", "model", "snowflake", [], [], {}),
    ("fct.orders", "table", "snowflake", ["finance"], ["finance"], {"tier": "gold"}),
    ("mart.finance", "table", "snowflake", ["finance"], ["finance"], {"tier": "silver"}),
    ("dash.revenue", "dashboard", "looker", [], ["finance"], {}),
    ("dash.finance", "dashboard", "looker", ["finance"], [], {}),
    ("report.quarterly", "report", "looker", [], [], {}),
    ("lonely.table", "table", "snowflake", [], [], {}),
    ("lonely.view", "view", "postgres", [], [], {}),
]
EDGES = [
    ("src.orders", "warehouse.orders"),
    ("warehouse.orders", "stg.orders"),
    ("warehouse.customers", "stg.customers"),
    ("stg.orders", "fct.orders"),
    ("stg.customers", "fct.orders"),
    ("fct.orders", "dash.revenue"),
    ("fct.orders", "mart.finance"),
    ("mart.finance", "dash.finance"),
    ("mart.finance", "report.quarterly"),
    ("dash.finance", "export.sheet"),
]


def _load(writer: httpx.Client) -> None:
    for asset_id, kind, platform, tags, owners, props in ASSETS:
        body: dict[str, Any] = {"name": asset_id.split(".")[-1], "type": kind, "tags": tags}
        body |= {"owners": owners, "properties": props}
        if platform:
            body["platform"] = platform
        response = writer.put("/assets/" + quote(asset_id, safe=""), json=body)
        assert response.status_code in (200, 201), response.text
    bulk = writer.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in EDGES])
    assert bulk.status_code == 200, bulk.text


@pytest.fixture
def warehouse(writer: httpx.Client) -> None:
    _load(writer)


def _query(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/query", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def _distances(result: dict[str, Any]) -> dict[str, int]:
    return {n["id"]: n["distance"] for n in result["nodes"]}


def _pairs(result: dict[str, Any]) -> set[tuple[str, str]]:
    return {(e["source"], e["target"]) for e in result["edges"]}


# The documented examples


def test_every_dashboard_downstream_of_a_table_within_10_hops(
    warehouse: None, reader: httpx.Client
) -> None:
    result = _query(reader, EXAMPLE_DASHBOARDS)
    assert _distances(result) == {"dash.revenue": 3, "dash.finance": 4}
    assert result["next_cursor"] is None and set(result) == {"nodes", "next_cursor"}


def test_pii_tables_feeding_anything_on_a_platform(warehouse: None, reader: httpx.Client) -> None:
    result = _query(reader, EXAMPLE_PII_FEEDING_LOOKER)
    assert _distances(result) == {"warehouse.orders": 3, "warehouse.customers": 3}


def test_shortest_path_between_two_assets(warehouse: None, reader: httpx.Client) -> None:
    result = _query(reader, EXAMPLE_SHORTEST_PATH)
    assert result["paths"] == [
        ["warehouse.orders", "stg.orders", "fct.orders", "mart.finance", "dash.finance"]
    ]
    assert result["truncated"] is False and result["next_cursor"] is None


def test_how_many_assets_a_source_feeds(warehouse: None, reader: httpx.Client) -> None:
    assert _query(reader, EXAMPLE_HOW_MANY_FED) == {"count": 8, "next_cursor": None}


def test_orphans_with_no_lineage(warehouse: None, reader: httpx.Client) -> None:
    result = _query(reader, EXAMPLE_ORPHANS)
    assert [n["id"] for n in result["nodes"]] == ["lonely.table", "lonely.view"]
    assert all(n["distance"] == 0 for n in result["nodes"])


# Start, traverse, where and through


def test_start_by_ids_returns_those_assets_and_ignores_unknown_ids(
    warehouse: None, reader: httpx.Client
) -> None:
    result = _query(reader, {"start": {"ids": ["fct.orders", "ghost", "dash.revenue"]}})
    assert result["nodes"] == [
        {
            "id": "dash.revenue",
            "name": "revenue",
            "type": "dashboard",
            "platform": "looker",
            "tags": [],
            "placeholder": False,
            "distance": 0,
        },
        {
            "id": "fct.orders",
            "name": "orders",
            "type": "table",
            "platform": "snowflake",
            "tags": ["finance"],
            "placeholder": False,
            "distance": 0,
        },
    ]


def test_start_by_filter_matches_the_stored_form(warehouse: None, reader: httpx.Client) -> None:
    def ids(where: dict[str, Any]) -> list[str]:
        return [n["id"] for n in _query(reader, {"start": {"where": where}})["nodes"]]

    assert ids({"type": "DASHBOARD"}) == ["dash.finance", "dash.revenue"]
    assert ids({"type": ["report", "view"]}) == ["lonely.view", "report.quarterly"]
    assert ids({"tags_all": ["PII", "crm"]}) == ["warehouse.customers"]
    assert ids({"tags_any": ["crm", "finance"], "platform": "looker"}) == ["dash.finance"]
    assert ids({"owner": ["finance", "nobody"], "type": "table"}) == ["fct.orders", "mart.finance"]
    assert ids({"id_prefix": "stg."}) == ["stg.customers", "stg.orders"]
    assert ids({"id_prefix": ["dash.", "report."]}) == [
        "dash.finance",
        "dash.revenue",
        "report.quarterly",
    ]
    assert ids({"name_contains": "CUST"}) == ["stg.customers", "warehouse.customers"]
    assert ids({"placeholder": True}) == ["export.sheet"]
    assert ids({"properties": {"tier": "gold"}}) == ["fct.orders", "warehouse.orders"]
    assert ids({"properties": {"tier": ["silver", "bronze"]}}) == ["mart.finance"]
    assert ids({"has_upstream": False, "type": "source"}) == ["src.orders"]
    assert ids({"has_downstream": False, "platform": "looker"}) == [
        "dash.revenue",
        "report.quarterly",
    ]


def test_traverse_distances_are_fewest_hops_in_each_direction(
    warehouse: None, reader: httpx.Client
) -> None:
    down = _query(
        reader, {"start": {"ids": ["stg.orders"]}, "traverse": {"direction": "downstream"}}
    )
    assert _distances(down) == {
        "fct.orders": 1,
        "dash.revenue": 2,
        "mart.finance": 2,
        "dash.finance": 3,
        "report.quarterly": 3,
        "export.sheet": 4,
    }
    assert [n["id"] for n in down["nodes"]][:3] == ["fct.orders", "dash.revenue", "mart.finance"]
    up = _query(reader, {"start": {"ids": ["fct.orders"]}, "traverse": {"direction": "upstream"}})
    assert _distances(up) == {
        "stg.orders": 1,
        "stg.customers": 1,
        "warehouse.orders": 2,
        "warehouse.customers": 2,
        "src.orders": 3,
    }
    both = _query(reader, {"start": {"ids": ["fct.orders"]}, "traverse": {"max_depth": 1}})
    assert _distances(both) == {
        "stg.orders": 1,
        "stg.customers": 1,
        "dash.revenue": 1,
        "mart.finance": 1,
    }, "both is upstream and downstream, never a zig-zag to siblings"


def test_min_depth_bounds_the_distance_and_zero_adds_the_start(
    warehouse: None, reader: httpx.Client
) -> None:
    walk = {"direction": "downstream", "min_depth": 3, "max_depth": 3}
    result = _query(reader, {"start": {"ids": ["stg.orders"]}, "traverse": walk})
    assert _distances(result) == {"dash.finance": 3, "report.quarterly": 3}
    walk = {"direction": "downstream", "min_depth": 0, "max_depth": 1}
    result = _query(reader, {"start": {"ids": ["stg.orders"]}, "traverse": walk})
    assert _distances(result) == {"stg.orders": 0, "fct.orders": 1}


def test_a_start_asset_is_returned_when_another_start_reaches_it(
    warehouse: None, reader: httpx.Client
) -> None:
    body = {
        "start": {"ids": ["warehouse.orders", "fct.orders"]},
        "traverse": {"direction": "downstream", "max_depth": 2, "where": {"type": "table"}},
    }
    assert _distances(_query(reader, body)) == {"fct.orders": 2, "mart.finance": 1}


def test_through_restricts_the_intermediate_assets_only(
    warehouse: None, reader: httpx.Client
) -> None:
    walk: dict[str, Any] = {
        "direction": "downstream",
        "max_depth": 10,
        "through": {"type": "model"},
    }
    result = _query(reader, {"start": {"ids": ["warehouse.orders"]}, "traverse": walk})
    assert _distances(result) == {"stg.orders": 1, "fct.orders": 2}
    walk["through"] = {"platform": "snowflake"}
    walk["where"] = {"platform": "looker"}
    result = _query(reader, {"start": {"ids": ["src.orders"]}, "traverse": walk})
    assert _distances(result) == {"dash.revenue": 4, "dash.finance": 5, "report.quarterly": 5}
    walk["through"] = {"platform": "snowflake", "tags_any": ["finance"]}
    result = _query(reader, {"start": {"ids": ["fct.orders"]}, "traverse": walk})
    assert _distances(result) == {"dash.revenue": 1, "dash.finance": 2, "report.quarterly": 2}
    walk["through"] = {"tags_any": ["pii"]}
    result = _query(reader, {"start": {"ids": ["warehouse.orders"]}, "traverse": walk})
    assert _distances(result) == {}, "the start need not pass `through`, stg.orders must"


def test_start_by_filter_with_traverse_where_and_through(
    warehouse: None, reader: httpx.Client
) -> None:
    body = {
        "start": {"where": {"tags_any": ["pii"], "type": "table"}},
        "traverse": {
            "direction": "downstream",
            "max_depth": 5,
            "where": {"type": ["dashboard", "report"]},
            "through": {"platform": "snowflake"},
        },
        "return": "graph",
    }
    result = _query(reader, body)
    assert _distances(result) == {"dash.revenue": 3, "dash.finance": 4, "report.quarterly": 4}
    assert result["edges"] == []


# Return forms


def test_edges_are_the_lineage_among_the_returned_assets(
    warehouse: None, reader: httpx.Client
) -> None:
    body: dict[str, Any] = {
        "start": {"ids": ["stg.orders"]},
        "traverse": {"direction": "downstream", "min_depth": 0, "max_depth": 2},
        "return": "edges",
    }
    result = _query(reader, body)
    assert set(result) == {"edges", "next_cursor"}
    assert result["edges"] == [
        {"source": "fct.orders", "target": "dash.revenue", "transformation": None},
        {"source": "fct.orders", "target": "mart.finance", "transformation": None},
        {"source": "stg.orders", "target": "fct.orders", "transformation": None},
    ]
    body["return"] = "graph"
    graph = _query(reader, body)
    assert [n["id"] for n in graph["nodes"]] == [
        "stg.orders",
        "fct.orders",
        "dash.revenue",
        "mart.finance",
    ]
    assert graph["edges"] == result["edges"]
    body["return"] = "count"
    assert _query(reader, body) == {"count": 4, "next_cursor": None}


def test_count_of_a_start_filter_and_of_nothing(warehouse: None, reader: httpx.Client) -> None:
    assert _query(reader, {"start": {"where": {}}, "return": "count"})["count"] == 13
    nothing = {"start": {"ids": ["ghost"]}, "traverse": {}, "return": "count"}
    assert _query(reader, nothing)["count"] == 0
    assert _query(reader, {"start": {"ids": ["ghost"]}, "traverse": {}})["nodes"] == []


def test_paths_all_shortest_direction_and_through(writer: httpx.Client) -> None:
    pairs = [("a", "b1"), ("a", "b2"), ("b1", "c"), ("b2", "c"), ("c", "d"), ("a", "x"), ("x", "y")]
    pairs += [("y", "d")]
    writer.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in pairs])
    writer.put("/assets/b2", json={"name": "b2", "type": "model"})
    one = _query(writer, {"path": {"from": "a", "to": "d"}})
    assert one["paths"] in (
        [["a", "b1", "c", "d"]],
        [["a", "b2", "c", "d"]],
        [["a", "x", "y", "d"]],
    )
    every = _query(writer, {"path": {"from": "a", "to": "d", "all_shortest": True}})
    assert sorted(every["paths"]) == [
        ["a", "b1", "c", "d"],
        ["a", "b2", "c", "d"],
        ["a", "x", "y", "d"],
    ]
    through = {"from": "a", "to": "d", "all_shortest": True, "through": {"type": ["unknown"]}}
    assert sorted(_query(writer, {"path": through})["paths"]) == [
        ["a", "b1", "c", "d"],
        ["a", "x", "y", "d"],
    ]
    up = {"from": "d", "to": "a", "direction": "upstream", "all_shortest": True}
    assert len(_query(writer, {"path": up})["paths"]) == 3
    assert _query(writer, {"path": {"from": "d", "to": "a"}})["paths"] == []
    either = {"from": "d", "to": "b2", "direction": "both"}
    assert _query(writer, {"path": either})["paths"] == [["d", "c", "b2"]]
    short = {"from": "a", "to": "d", "max_depth": 2}
    assert _query(writer, {"path": short})["paths"] == []
    graph = _query(writer, {"path": through, "return": "graph"})
    assert _distances(graph) == {"a": 0, "b1": 1, "x": 1, "c": 2, "y": 2, "d": 3}
    assert len(graph["edges"]) == 6
    count = _query(writer, {"path": {**through, "through": None}, "return": "count"})
    assert count == {"count": 3, "truncated": False, "next_cursor": None}


# Paging


def test_cursor_pages_through_a_large_answer(writer: httpx.Client, reader: httpx.Client) -> None:
    fan = [("hub", f"leaf.{i:04d}") for i in range(1_050)]
    fan += [(f"leaf.{i:04d}", f"deep.{i:04d}") for i in range(0, 1_050, 3)]
    assert writer.post(
        "/lineage/bulk", json=[{"source": s, "target": t} for s, t in fan]
    ).is_success
    body: dict[str, Any] = {
        "start": {"ids": ["hub"]},
        "traverse": {"direction": "downstream"},
        "limit": 400,
    }
    seen: list[tuple[int, str]] = []
    pages = 0
    while True:
        result = _query(reader, body)
        seen += [(n["distance"], n["id"]) for n in result["nodes"]]
        pages += 1
        if result["next_cursor"] is None:
            break
        body["cursor"] = result["next_cursor"]
    assert pages == 4 and len(seen) == 1_050 + 350
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    assert _query(reader, {**body, "cursor": None, "return": "count"})["count"] == 1_400
    edges: list[tuple[str, str]] = []
    body = {**body, "cursor": None, "return": "edges", "traverse": {"min_depth": 0}}
    while True:
        result = _query(reader, body)
        edges += [(e["source"], e["target"]) for e in result["edges"]]
        if result["next_cursor"] is None:
            break
        body["cursor"] = result["next_cursor"]
    assert edges == sorted(set(edges)) and len(edges) == 1_400


def test_paths_page_by_offset(writer: httpx.Client) -> None:
    pairs = [("a", f"m{i}") for i in range(7)] + [(f"m{i}", "z") for i in range(7)]
    writer.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in pairs])
    body: dict[str, Any] = {"path": {"from": "a", "to": "z", "all_shortest": True}, "limit": 3}
    found: list[list[str]] = []
    while True:
        result = _query(writer, body)
        found += result["paths"]
        if result["next_cursor"] is None:
            break
        body["cursor"] = result["next_cursor"]
    assert sorted(found) == [["a", f"m{i}", "z"] for i in range(7)]


def test_a_bad_cursor_is_400(warehouse: None, reader: httpx.Client) -> None:
    body: dict[str, Any] = {"start": {"where": {}}, "limit": 2}
    cursor = _query(reader, body)["next_cursor"]
    for bad, form in (("!!", "nodes"), (cursor, "edges"), (cursor, "count")):
        response = reader.post("/query", json={**body, "cursor": bad, "return": form})
        assert response.status_code == 400, (bad, form)
        assert response.json()["code"] == "invalid_cursor"


# Malformed queries, scopes


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"start": {"ids": ["a"]}, "bogus": 1}, ["body", "bogus"]),
        ({"start": {"ids": ["a"], "where": {}}}, ["body", "start", "where"]),
        ({"start": {"where": {"colour": "red"}}}, ["body", "start", "where", "colour"]),
        ({"start": {"ids": "a"}}, ["body", "start", "ids"]),
        (
            {"start": {"ids": ["a"]}, "traverse": {"max_depth": 51}},
            ["body", "traverse", "max_depth"],
        ),
        (
            {"start": {"ids": ["a"]}, "traverse": {"max_depth": 0}},
            ["body", "traverse", "max_depth"],
        ),
        (
            {"start": {"ids": ["a"]}, "traverse": {"max_depth": "5"}},
            ["body", "traverse", "max_depth"],
        ),
        (
            {"start": {"ids": ["a"]}, "traverse": {"min_depth": 4, "max_depth": 3}},
            ["body", "traverse", "min_depth"],
        ),
        (
            {"start": {"ids": ["a"]}, "traverse": {"direction": "sideways"}},
            ["body", "traverse", "direction"],
        ),
        ({"start": {"ids": ["a"]}, "path": {"from": "a", "to": "b"}}, ["body", "path"]),
        ({"return": "nodes"}, ["body", "start"]),
        ({"start": {"ids": ["a"]}, "return": "paths"}, ["body", "return"]),
        ({"start": {"ids": ["a"]}, "return": "everything"}, ["body", "return"]),
        ({"start": {"ids": ["a"]}, "limit": 10_001}, ["body", "limit"]),
        ({"start": {"ids": ["a"]}, "limit": 0}, ["body", "limit"]),
        ({"path": {"from": "a", "to": "a"}}, ["body", "path", "to"]),
        ({"path": {"from": "a"}}, ["body", "path", "to"]),
        (
            {"path": {"from": "a", "to": "b", "all_shortest": "yes"}},
            ["body", "path", "all_shortest"],
        ),
    ],
)
def test_a_malformed_query_is_422_at_the_field(
    reader: httpx.Client, body: dict[str, Any], loc: list[Any]
) -> None:
    response = reader.post("/query", json=body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "validation_error"
    assert loc in [e["loc"] for e in problem["errors"]], problem["errors"]


def test_query_needs_read_and_raw_cypher_needs_admin(
    reader: httpx.Client, writer: httpx.Client, anonymous: httpx.Client
) -> None:
    assert reader.post("/query", json={"start": {"ids": ["a"]}}).status_code == 200
    for client in (reader, writer):
        response = client.post("/query/cypher", json={"query": "RETURN 1"})
        assert response.status_code == 403
        assert response.json()["code"] == "insufficient_scope"
        assert 'scope="admin"' in response.headers["www-authenticate"]
    assert anonymous.post("/query", json={"start": {"ids": ["a"]}}).status_code == 401


def test_the_body_must_be_json(reader: httpx.Client) -> None:
    assert (
        reader.post(
            "/query", content=b"{", headers={"content-type": "application/json"}
        ).status_code
        == 400
    )
    assert (
        reader.post("/query", content=b"{}", headers={"content-type": "text/plain"}).status_code
        == 415
    )


# Cost


def test_a_lattice_of_2_to_the_40_paths_answers_at_once(writer: httpx.Client) -> None:
    writer.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in plans.lattice(40)])
    for blocked in ("l17", "r17"):
        writer.put("/assets/" + blocked, json={"name": blocked, "type": "model"})
    deep = {"direction": "downstream", "max_depth": 50}
    through = {**deep, "through": {"type": "unknown"}}
    every = {"from": "top", "to": "l40", "max_depth": 50, "all_shortest": True}
    # 2^40 paths: a query that enumerated them would meet the service's query deadline
    # (an error status, which `_query` refuses) instead of these answers.
    plain = _query(writer, {"start": {"ids": ["top"]}, "traverse": deep, "limit": 500})
    restricted = _query(writer, {"start": {"ids": ["top"]}, "traverse": through, "limit": 500})
    everywhere = {"start": {"where": {}}, "traverse": {**through, "direction": "both"}}
    both = _query(writer, {**everywhere, "return": "count"})
    paths = _query(writer, {"path": every, "return": "count"})
    via = {**every, "through": {"type": ["unknown", "model"]}}
    some = _query(writer, {"path": via, "limit": 5})
    none = _query(writer, {"path": {**every, "through": {"type": "unknown"}}})
    assert len(plain["nodes"]) == 2 * 41 and _distances(plain)["l40"] == 41
    assert _distances(restricted)["r17"] == 18 and "l18" not in _distances(restricted)
    assert len(restricted["nodes"]) == 2 * 18
    assert both["count"] == 83
    assert paths == {"count": 10_000, "truncated": True, "next_cursor": None}
    assert len(some["paths"]) == 5 and all(len(p) == 42 for p in some["paths"])
    assert some["truncated"] is True and some["next_cursor"] is not None
    assert none["paths"] == [] and none["truncated"] is False


def _battery() -> list[dict[str, Any]]:
    where = {"type": ["table"], "tags_any": ["x"], "properties": {"k": 1}, "has_upstream": True}
    queries: list[dict[str, Any]] = []
    for direction in ("downstream", "upstream", "both"):
        for through in (None, where):
            for min_depth in (0, 1):
                walk: dict[str, Any] = {"direction": direction, "max_depth": 50}
                walk |= {"min_depth": min_depth, "where": where, "through": through}
                for form in ("nodes", "edges", "graph", "count"):
                    queries.append({"start": {"where": where}, "traverse": walk, "return": form})
    return queries


def test_traversals_plan_a_pruning_breadth_first_expand(driver: neo4j.Driver) -> None:
    """Guards the linear-cost design for every traversal shape the compiler makes: with
    and without `through`, in each direction, for each form; never path enumeration."""
    bounds = Bounds(max_depth=50, max_limit=10_000, path_cap=10_000)
    with driver.session(notifications_min_severity="OFF") as session:
        for body in _battery():
            compiled = compile_query(Query.model_validate(body, strict=True), bounds)
            plan = session.run("EXPLAIN " + compiled.text, compiled.params).consume().plan
            operators = plans.operators(plan)
            pruning = [op for op in operators if op.startswith("VarLengthExpand(Pruning,BFS")]
            sides = 2 if body["traverse"]["direction"] == "both" else 1
            assert len(pruning) == sides, (body, operators)
            assert not [op for op in operators if _enumerates(op)], (body, operators)


def test_paths_plan_a_shortest_path_search(driver: neo4j.Driver) -> None:
    bounds = Bounds(max_depth=50, max_limit=10_000, path_cap=10_000)
    with driver.session(notifications_min_severity="OFF") as session:
        for through in (None, {"type": "table", "properties": {"k": "v"}}):
            for direction in ("downstream", "upstream", "both"):
                path = {"from": "a", "to": "b", "direction": direction, "all_shortest": True}
                body = {"path": {**path, "through": through}, "return": "graph"}
                compiled = compile_query(Query.model_validate(body, strict=True), bounds)
                plan = session.run("EXPLAIN " + compiled.text, compiled.params).consume().plan
                operators = plans.operators(plan)
                assert any("ShortestPath" in op for op in operators), operators
                assert not [op for op in operators if _enumerates(op)], (body, operators)


def _enumerates(operator: str) -> bool:
    return operator.startswith(("VarLengthExpand(All", "VarLengthExpand(Into", "Repeat", "Trail"))
