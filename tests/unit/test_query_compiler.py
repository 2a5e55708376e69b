"""The query compiler without a database: each construct and their combinations
compile to one parameterised statement; every malformed query is a 422 at its field.
(Its Cypher runs against real Neo4j in tests/integration/test_query_*.py.)"""

from __future__ import annotations

import re
from typing import Any

import pytest

from service import cypher
from service.domain.query import Bounds, Compiled, compile_query
from service.errors import BadRequest, Unprocessable
from service.models.query import Query
from service.models.validation import validate

BOUNDS = Bounds(max_depth=50, max_limit=10_000, path_cap=10_000)


def compiled(body: dict[str, Any], after: Any = None, bounds: Bounds = BOUNDS) -> Compiled:
    return compile_query(validate(Query, body), bounds, after)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def loc_of(body: dict[str, Any], bounds: Bounds = BOUNDS) -> list[list[Any]]:
    with pytest.raises(Unprocessable) as caught:
        compiled(body, bounds=bounds)
    assert caught.value.code == "validation_error"
    return [list(e.loc) for e in caught.value.errors or []]


def test_every_parameter_the_text_uses_is_given() -> None:
    for body in BODIES:
        result = compiled(body)
        used = cypher.parse("t.t", result.text).params
        assert used <= result.params.keys(), body


def test_no_client_value_is_ever_part_of_the_text() -> None:
    evil = "x'}) DETACH DELETE n //"
    body = {
        "start": {"where": {"type": evil, "name_contains": evil, "properties": {evil: evil}}},
        "traverse": {"where": {"id_prefix": evil}, "through": {"owner": evil}, "max_depth": 7},
    }
    result = compiled(body)
    assert "DETACH" not in result.text and "x'" not in result.text
    assert result.params["start_key0"] == "prop." + evil
    evil_id = "x'})DETACH_DELETE(n)//"
    path = compiled({"path": {"from": evil_id, "to": "b", "through": {"tags_any": [evil]}}})
    assert "DETACH" not in path.text and path.params["path_from"] == evil_id


# start


def test_start_by_ids_is_an_index_seek_on_the_id() -> None:
    result = compiled({"start": {"ids": ["a", "b"]}})
    assert "MATCH (n:Asset) WHERE n.id IN $start_ids WITH n, 0 AS distance" in flat(result.text)
    assert result.params["start_ids"] == ["a", "b"]
    assert result.form == "nodes" and result.columns == ("nodes",)


def test_start_by_filter_compiles_each_field_to_a_parameterised_predicate() -> None:
    where = {
        "type": "Table",
        "platform": ["snowflake", "postgres"],
        "tags_all": ["PII", "finance"],
        "tags_any": "Gold",
        "owner": "ann",
        "id_prefix": "model.",
        "name_contains": "Orders",
        "placeholder": False,
        "has_upstream": True,
        "has_downstream": False,
        "properties": {"tier": "gold", "rows": [1, 2.5, True]},
    }
    result = compiled({"start": {"where": where}})
    text = flat(result.text)
    for fragment, name, value in (
        ("n.type IN $start_type", "start_type", ["table"]),
        ("n.platform IN $start_platform", "start_platform", ["snowflake", "postgres"]),
        ("all(tag_ IN $start_tags_all WHERE tag_ IN n.tags)", "start_tags_all", ["pii", "finance"]),
        ("any(tag_ IN $start_tags_any WHERE tag_ IN n.tags)", "start_tags_any", ["gold"]),
        ("any(owner_ IN $start_owner WHERE owner_ IN n.owners)", "start_owner", ["ann"]),
        ("n.id STARTS WITH $start_id_prefix", "start_id_prefix", "model."),
        ("toLower(n.name) CONTAINS $start_name", "start_name", "orders"),
        ("coalesce(n.placeholder, false) = $start_placeholder", "start_placeholder", False),
        ("EXISTS { (n)<-[:LINEAGE]-() } = $start_upstream", "start_upstream", True),
        ("EXISTS { (n)-[:LINEAGE]->() } = $start_downstream", "start_downstream", False),
        ("n[$start_key0] IN $start_value0", "start_value0", [1, 2.5, True]),
        ("n[$start_key1] IN $start_value1", "start_value1", ["gold"]),
    ):
        assert fragment in text, fragment
        assert result.params[name] == value, name
    assert result.params["start_key0"] == "prop.rows"
    assert " AND ".join(["n.type IN $start_type", "n.platform IN $start_platform"]) in text


def test_several_id_prefixes_are_any_of_and_an_empty_filter_matches_everything() -> None:
    text = flat(compiled({"start": {"where": {"id_prefix": ["a.", "b."]}}}).text)
    assert "any(prefix_ IN $start_id_prefix WHERE n.id STARTS WITH prefix_)" in text
    assert "MATCH (n:Asset) WHERE true" in flat(compiled({"start": {"where": {}}}).text)


# traverse


@pytest.mark.parametrize(
    ("direction", "patterns"),
    [
        ("downstream", ["(s)-[:LINEAGE*1..7]->(n)"]),
        ("upstream", ["(s)<-[:LINEAGE*1..7]-(n)"]),
        ("both", ["(s)-[:LINEAGE*1..7]->(n)", "(s)<-[:LINEAGE*1..7]-(n)"]),
    ],
)
def test_traverse_walks_each_direction_with_the_depth_as_a_bound(
    direction: str, patterns: list[str]
) -> None:
    body = {"start": {"ids": ["a"]}, "traverse": {"direction": direction, "max_depth": 7}}
    result = compiled(body)
    text = flat(result.text)
    for pattern in patterns:
        assert f"MATCH p = {pattern} WHERE n <> s RETURN n, min(length(p)) AS d" in text
    assert text.count("UNION ALL") == len(patterns) - 1
    assert "WITH n, min(d) AS distance WHERE distance >= $min_depth AND true" in text
    assert result.params["min_depth"] == 1


def test_traverse_defaults_to_both_directions_and_five_hops() -> None:
    text = flat(compiled({"start": {"ids": ["a"]}, "traverse": {}}).text)
    assert "*1..5]->" in text and "<-[:LINEAGE*1..5]-" in text


def test_min_depth_zero_adds_the_start_assets() -> None:
    body = {"start": {"ids": ["a"]}, "traverse": {"direction": "upstream", "min_depth": 0}}
    result = compiled(body)
    assert "UNION ALL RETURN s AS n, 0 AS d }" in flat(result.text)
    assert result.params["min_depth"] == 0


def test_through_is_a_quantified_pattern_over_the_intermediate_assets_then_one_hop() -> None:
    body = {
        "start": {"where": {"tags_any": ["pii"]}},
        "traverse": {
            "direction": "downstream",
            "max_depth": 4,
            "where": {"type": "dashboard"},
            "through": {"platform": "snowflake"},
        },
    }
    result = compiled(body)
    text = flat(result.text)
    assert (
        "MATCH p = (s) ((hop_a)-[:LINEAGE]->(hop_b) WHERE hop_b.platform IN $through_platform)"
        "{0,3} (m) WITH m, min(length(p)) AS dm MATCH (m)-[:LINEAGE]->(n) WHERE n <> s "
        "RETURN n, min(dm + 1) AS d"
    ) in text
    assert "MATCH (s:Asset) WHERE any(tag_ IN $start_tags_any WHERE tag_ IN s.tags)" in text
    assert "WHERE distance >= $min_depth AND n.type IN $where_type" in text
    assert result.params["through_platform"] == ["snowflake"]
    assert result.params["where_type"] == ["dashboard"]


def test_through_upstream_and_both_and_a_single_hop() -> None:
    walk = {"direction": "both", "max_depth": 2, "through": {"type": "model"}}
    text = flat(compiled({"start": {"ids": ["a"]}, "traverse": walk}).text)
    assert "((hop_a)-[:LINEAGE]->(hop_b) WHERE hop_b.type IN $through_type){0,1}" in text
    assert "((hop_a)<-[:LINEAGE]-(hop_b) WHERE hop_b.type IN $through_type){0,1}" in text
    assert "MATCH (m)<-[:LINEAGE]-(n)" in text
    single = compiled({"start": {"ids": ["a"]}, "traverse": {**walk, "max_depth": 1}})
    assert "hop_b" not in single.text and "through_type" not in single.params, (
        "one hop has no intermediate asset to restrict"
    )


# return forms


def test_nodes_page_by_distance_then_id_after_the_cursor() -> None:
    result = compiled({"start": {"ids": ["a"]}, "traverse": {}, "limit": 3}, after=[2, "m"])
    text = flat(result.text)
    assert (
        "WHERE distance > $after_distance OR (distance = $after_distance AND n.id > $after_id)"
        in text
    )
    assert "ORDER BY distance, n.id LIMIT $fetch" in text
    assert text.endswith("AS nodes")
    assert (result.params["after_distance"], result.params["after_id"]) == (2, "m")
    assert result.params["fetch"] == 4
    first = compiled({"start": {"ids": ["a"]}, "traverse": {}})
    assert (first.params["after_distance"], first.params["after_id"]) == (-1, "")


def test_edges_are_among_the_reached_assets_paged_by_source_and_target() -> None:
    result = compiled({"start": {"ids": ["a"]}, "traverse": {}, "return": "edges"}, ["a", "b"])
    text = flat(result.text)
    assert "WITH collect(n) AS ns UNWIND ns AS a MATCH (a)-[r:LINEAGE]->(b) WHERE b IN ns" in text
    assert "ORDER BY a.id, b.id LIMIT $fetch" in text
    assert (result.params["after_source"], result.params["after_target"]) == ("a", "b")
    assert result.columns == ("edges",)


def test_graph_is_a_page_of_nodes_and_the_edges_among_them() -> None:
    result = compiled({"start": {"where": {}}, "return": "graph", "limit": 10})
    text = flat(result.text)
    assert "WITH nodes, ns[..$limit] AS page CALL (page) {" in text
    assert "WHERE b IN page" in text and text.endswith("RETURN nodes, edges")
    assert result.params["limit"] == 10 and result.columns == ("nodes", "edges")


def test_count_never_collects_the_assets() -> None:
    result = compiled({"start": {"ids": ["a"]}, "traverse": {}, "return": "count"})
    assert result.text.endswith("RETURN count(n) AS count")
    assert "collect" not in result.text and result.columns == ("count",)


# paths


def test_a_path_query_is_any_shortest_downstream_by_default() -> None:
    result = compiled({"path": {"from": "a", "to": "b"}})
    text = flat(result.text)
    assert "MATCH (a:Asset {id: $path_from}) MATCH (b:Asset {id: $path_to})" in text
    assert "MATCH p = ANY SHORTEST (a)-[:LINEAGE]->{1,10}(b) WITH p LIMIT $path_fetch" in text
    assert "WITH found[..$path_cap] AS found, size(found) > $path_cap AS truncated" in text
    assert "found[$after_offset..($after_offset + $fetch)]" in text
    assert result.form == "paths" and result.columns == ("paths", "truncated")
    assert (result.params["path_cap"], result.params["path_fetch"]) == (10_000, 10_001)


def test_all_shortest_paths_in_both_directions_through_a_filter() -> None:
    path = {
        "from": "a",
        "to": "b",
        "direction": "both",
        "max_depth": 6,
        "all_shortest": True,
        "through": {"type": "table"},
    }
    result = compiled({"path": path, "return": "graph"}, after=[0, "a"])
    text = flat(result.text)
    assert "CALL (a, b) {" in text
    assert (
        "MATCH p = ALL SHORTEST (a) ((hop_a)-[:LINEAGE]->(hop_b) WHERE hop_b.type IN "
        "$through_type){0,5} (m)-[:LINEAGE]->(b) RETURN p LIMIT $path_fetch"
    ) in text
    assert "(hop_a)<-[:LINEAGE]-(hop_b)" in text and "(m)<-[:LINEAGE]-(b)" in text
    assert "WITH [x IN found WHERE length(x) = best] AS found" in text
    assert "found[..1]" not in text
    assert "UNWIND range(0, length(x)) AS i" in text
    assert text.endswith("RETURN nodes, edges, truncated")


def test_any_shortest_in_both_directions_keeps_one_path() -> None:
    text = flat(compiled({"path": {"from": "a", "to": "b", "direction": "both"}}).text)
    assert "WITH found[..1] AS found" in text


def test_upstream_path_and_count() -> None:
    body = {"path": {"from": "a", "to": "b", "direction": "upstream"}, "return": "count"}
    result = compiled(body)
    assert "(a)<-[:LINEAGE]-{1,10}(b)" in result.text
    assert result.text.endswith("RETURN size(found) AS count, truncated")


def test_paths_resume_at_the_cursor_offset() -> None:
    result = compiled({"path": {"from": "a", "to": "b", "all_shortest": True}}, after=20)
    assert result.params["after_offset"] == 20 and result.offset == 20


# cursors and answers


@pytest.mark.parametrize(
    ("form", "after"),
    [
        ("nodes", ["a", "b"]),
        ("nodes", [1]),
        ("nodes", [True, "a"]),
        ("nodes", "a"),
        ("graph", [1, 2]),
        ("edges", [1, "a"]),
        ("edges", ["a", "b", "c"]),
        ("count", ["a", "b"]),
    ],
)
def test_a_cursor_of_another_shape_is_400(form: str, after: Any) -> None:
    with pytest.raises(BadRequest) as caught:
        compiled({"start": {"ids": ["a"]}, "return": form}, after=after)
    assert caught.value.code == "invalid_cursor"


@pytest.mark.parametrize("after", [-1, 10_001, "3", [3], True])
def test_a_path_cursor_is_an_offset_within_the_cap(after: Any) -> None:
    with pytest.raises(BadRequest):
        compiled({"path": {"from": "a", "to": "b"}}, after=after)


def test_answers_keep_a_page_and_point_at_the_next() -> None:
    node = {"id": "x", "name": None, "type": None, "platform": None, "tags": None}
    rows = [{**node, "id": f"n{i}", "distance": i, "placeholder": True} for i in range(3)]
    result = compiled({"start": {"ids": ["a"]}, "traverse": {}, "limit": 2})
    parts, after = result.answer({"nodes": rows})
    assert [n.id for n in parts["nodes"]] == ["n0", "n1"] and after == [1, "n1"]
    assert parts["nodes"][0].name == "n0" and parts["nodes"][0].type == "unknown"
    parts, after = result.answer({"nodes": rows[:2]})
    assert after is None and "truncated" not in parts
    edges = [{"source": "a", "target": t, "transformation": None} for t in "bcd"]
    result = compiled({"start": {"ids": ["a"]}, "return": "edges", "limit": 2})
    assert result.answer({"edges": edges})[1] == ["a", "c"]
    result = compiled({"path": {"from": "a", "to": "b"}, "limit": 2}, after=4)
    parts, after = result.answer({"paths": [["a", "b"]] * 3, "truncated": True})
    assert parts == {"paths": [["a", "b"]] * 2, "truncated": True} and after == 6
    result = compiled({"path": {"from": "a", "to": "b"}, "return": "count"})
    assert result.answer({"count": 7, "truncated": False}) == (
        {"count": 7, "truncated": False},
        None,
    )


# malformed queries: 422 at the field


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"start": {"ids": ["a"]}, "colour": "red"}, ["body", "colour"]),
        ({"start": {"ids": ["a"], "depth": 3}}, ["body", "start", "depth"]),
        ({"start": {"where": {"kind": "table"}}}, ["body", "start", "where", "kind"]),
        ({"start": {"where": {"placeholder": "yes"}}}, ["body", "start", "where", "placeholder"]),
        ({"start": {"where": {"tags_any": []}}}, ["body", "start", "where", "tags_any"]),
        ({"start": {"where": {"type": 3}}}, ["body", "start", "where", "type", 0]),
        ({"start": {"ids": []}}, ["body", "start", "ids"]),
        ({"start": {"ids": ["has space"]}}, ["body", "start", "ids", 0]),
        (
            {"start": {"ids": ["a"]}, "traverse": {"max_depth": 0}},
            ["body", "traverse", "max_depth"],
        ),
        (
            {"start": {"ids": ["a"]}, "traverse": {"max_depth": 2.5}},
            ["body", "traverse", "max_depth"],
        ),
        (
            {"start": {"ids": ["a"]}, "traverse": {"min_depth": -1}},
            ["body", "traverse", "min_depth"],
        ),
        ({"start": {"ids": ["a"]}, "traverse": {"through": []}}, ["body", "traverse", "through"]),
        ({"start": {"ids": ["a"]}, "return": "table"}, ["body", "return"]),
        ({"start": {"ids": ["a"]}, "limit": "10"}, ["body", "limit"]),
        ({"path": {"from": "a", "to": "b", "direction": "any"}}, ["body", "path", "direction"]),
        ({"path": {"to": "b"}}, ["body", "path", "from"]),
        ({"path": {"from_": "a", "from": "a", "to": "b"}}, ["body", "path", "from_"]),
        ([], ["body"]),
    ],
)
def test_a_field_that_is_wrong_alone_is_422_at_it(body: Any, loc: list[Any]) -> None:
    with pytest.raises(Unprocessable) as caught:
        validate(Query, body)
    assert loc in [list(e.loc) for e in caught.value.errors or []]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"start": {"ids": ["a"]}, "path": {"from": "a", "to": "b"}}, ["body", "path"]),
        ({}, ["body", "start"]),
        ({"traverse": {}}, ["body", "start"]),
        ({"start": {}}, ["body", "start"]),
        ({"start": {"ids": ["a"], "where": {}}}, ["body", "start", "where"]),
        ({"path": {"from": "a", "to": "b"}, "traverse": {}}, ["body", "traverse"]),
        ({"start": {"ids": ["a"]}, "return": "paths"}, ["body", "return"]),
        ({"path": {"from": "a", "to": "a"}}, ["body", "path", "to"]),
        (
            {"start": {"ids": ["a"]}, "traverse": {"min_depth": 6, "max_depth": 5}},
            ["body", "traverse", "min_depth"],
        ),
    ],
)
def test_fields_that_contradict_each_other_are_422_at_the_field(
    body: dict[str, Any], loc: list[Any]
) -> None:
    assert loc in loc_of(body)


def test_configured_limits_bound_depth_and_page_size() -> None:
    tight = Bounds(max_depth=10, max_limit=100, path_cap=50)
    assert loc_of({"start": {"ids": ["a"]}, "traverse": {"max_depth": 11}}, tight) == [
        ["body", "traverse", "max_depth"]
    ]
    assert loc_of({"path": {"from": "a", "to": "b", "max_depth": 11}}, tight) == [
        ["body", "path", "max_depth"]
    ]
    assert loc_of({"start": {"ids": ["a"]}, "limit": 101}, tight) == [["body", "limit"]]
    capped = compiled({"path": {"from": "a", "to": "b"}}, bounds=tight)
    assert capped.params["path_cap"] == 50


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        (
            {"start": {"ids": ["a"]}, "traverse": {"max_depth": 51}},
            ["body", "traverse", "max_depth"],
        ),
        ({"start": {"ids": ["a"]}, "limit": 10_001}, ["body", "limit"]),
        ({"path": {"from": "a", "to": "b", "max_depth": 51}}, ["body", "path", "max_depth"]),
    ],
)
def test_depth_and_page_size_are_bounded_by_the_configuration_not_the_model(
    body: dict[str, Any], loc: list[Any]
) -> None:
    validate(Query, body)  # the model knows no maximum
    assert loc_of(body) == [loc]  # the defaults: 50 hops, 10,000 items
    compiled(body, bounds=Bounds(max_depth=60, max_limit=20_000, path_cap=10_000))


def test_every_problem_is_reported_at_once() -> None:
    body = {
        "start": {"ids": ["a"]},
        "path": {"from": "a", "to": "a"},
        "traverse": {"min_depth": 9, "max_depth": 8},
        "return": "paths",
    }
    assert sorted(loc_of(body)) == [
        ["body", "path"],
        ["body", "path", "to"],
        ["body", "traverse"],
        ["body", "traverse", "min_depth"],
    ]


BODIES: list[dict[str, Any]] = (
    [{"start": {"ids": ["a"]}, "return": form} for form in ("nodes", "edges", "graph", "count")]
    + [
        {
            "start": {"where": {"type": "table", "properties": {"k": 1}}},
            "traverse": {
                "direction": direction,
                "min_depth": 0,
                "max_depth": 3,
                "where": {"tags_any": ["x"]},
                "through": {"owner": "o", "has_upstream": True},
            },
            "return": form,
        }
        for direction in ("downstream", "upstream", "both")
        for form in ("nodes", "edges", "graph", "count")
    ]
    + [
        {
            "path": {
                "from": "a",
                "to": "b",
                "direction": direction,
                "all_shortest": every,
                "through": {"type": "table"},
            },
            "return": form,
        }
        for direction in ("downstream", "upstream", "both")
        for every in (False, True)
        for form in ("paths", "nodes", "edges", "graph", "count")
    ]
)
