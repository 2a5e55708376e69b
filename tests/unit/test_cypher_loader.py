import re
from pathlib import Path

import pytest

from service import cypher

SERVICE = Path(__file__).resolve().parents[2] / "service"
NAME_IN_CODE = re.compile(r'"((?:[a-z_]+)\.(?:[a-z_0-9]+))"')


def test_every_cypher_file_loads_with_a_doc_comment() -> None:
    queries = cypher.load()
    assert len(queries) > 10
    for query in queries.values():
        assert query.doc, f"{query.name} has no leading // documentation"


# The first argument of a call that runs a named query: `graph.read("assets.get", ...)`,
# `tx.run("lineage.merge_edges", ...)`, `reader.run(...)`, `graph.write(...)`.
RUN_CALL = re.compile(r'\.(?:run|read|write|run_last)\(\s*"([a-z_]+\.[a-z_0-9]+)"')


def _unknown_queries(text: str, queries: cypher.Queries) -> set[str]:
    return {name for name in RUN_CALL.findall(text) if name not in queries}


def test_every_query_the_code_runs_exists() -> None:
    queries = cypher.load()
    unknown = {
        f"{path.relative_to(SERVICE)}: {name}"
        for path in SERVICE.rglob("*.py")
        for name in _unknown_queries(path.read_text(), queries)
    }
    assert unknown == set(), "queries run by name that no Cypher file defines"


def test_the_check_finds_a_misspelled_query() -> None:
    code = 'rows = await graph.read(\n    "assets.gte", id=asset_id)\nawait tx.run("users.get")'
    assert _unknown_queries(code, cypher.load()) == {"assets.gte"}


def test_every_cypher_file_is_used() -> None:
    queries = cypher.load()
    used: set[str] = set()
    for path in SERVICE.rglob("*.py"):
        used |= {name for name in NAME_IN_CODE.findall(path.read_text()) if name in queries}
    schema = {n for n in queries if n.startswith("schema.")}
    assert set(queries) - schema - used == set(), "Cypher files no code runs"


def test_parameters_are_found_outside_strings_and_comments() -> None:
    query = cypher.parse("x.y", "// uses $nothing\nMATCH (a {id: $id}) WHERE a.s = '$not' RETURN a")
    assert query.params == {"id"}
    assert query.doc == "uses $nothing"


def test_a_missing_parameter_fails_before_reaching_neo4j() -> None:
    query = cypher.parse("x.y", "MATCH (a {id: $id}) RETURN a")
    with pytest.raises(cypher.CypherError, match="id"):
        query.check_params({})


def test_only_the_parameters_a_statement_uses_are_sent() -> None:
    # Neo4j plans a statement again for each set of parameter types it is sent, used or not.
    query = cypher.parse(
        "x.y", "// $unused\nMATCH (a {id: $id}) WHERE a.n IN $given.names RETURN a"
    )
    assert query.bind({"id": "a", "given": {"names": None}, "unused": [1]}) == {
        "id": "a",
        "given": {"names": None},
    }
    with pytest.raises(cypher.CypherError, match="given"):
        query.bind({"id": "a"})


def test_no_statement_uses_a_subquery_without_a_scope_clause() -> None:
    # `CALL { ... }` without `()` or `(vars)` is deprecated in Neo4j 5 (removed in Cypher 25).
    unscoped = [
        name
        for name, query in cypher.load().items()
        if re.search(
            r"\bCALL\s*\{",
            query.statement({b: 1 for b in query.bounds}) if not query.slots else query.text,
        )
    ]
    assert unscoped == []


def test_bounds_are_validated_integers() -> None:
    query = cypher.parse("x.y", "MATCH p = (a)-[*1..{{max_depth}}]->(b) RETURN b")
    assert "*1..7]" in query.statement({"max_depth": 7})
    for bad in ("7", 7.0, -1, True, 10**9):
        with pytest.raises(cypher.CypherError):
            query.statement({"max_depth": bad})  # type: ignore[dict-item]
    with pytest.raises(cypher.CypherError):
        query.statement({})


def test_duplicate_names_fail_loading(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.cypher").write_text("// x\nRETURN 1")
    (tmp_path / "a.b.cypher").write_text("// y\nRETURN 2")
    with pytest.raises(cypher.CypherError, match="duplicate"):
        cypher.load(tmp_path)


def test_unknown_name_is_a_programming_error() -> None:
    with pytest.raises(cypher.CypherError):
        cypher.load()["nope.nothing"]


def test_a_fragment_fills_its_bounds_and_every_slot_and_is_no_statement() -> None:
    fragment = cypher.parse(
        "x.y",
        "// a walk; <<not_a_slot>> in a comment\n  MATCH (s)-[*1..{{depth}}]->(n) WHERE <<where>>",
    )
    assert fragment.slots == {"where"} and fragment.bounds == {"depth"}
    filled = fragment.fill({"depth": 3}, where="n.id IN $ids")
    assert filled == "  MATCH (s)-[*1..3]->(n) WHERE n.id IN $ids", "documentation dropped"
    with pytest.raises(cypher.CypherError, match="slots"):
        fragment.fill({"depth": 3})
    with pytest.raises(cypher.CypherError, match="slots"):
        fragment.fill({"depth": 3}, where="true", other="true")
    with pytest.raises(cypher.CypherError):
        fragment.fill({"depth": "3"}, where="true")  # type: ignore[dict-item]
    with pytest.raises(cypher.CypherError, match="fragment"):
        fragment.statement({"depth": 3})
