"""The /query/cypher guard on plans shaped like Neo4j's EXPLAIN output, and the
converter of Cypher values to JSON. (Real plans: tests/integration/test_query_cypher.py.)"""

from __future__ import annotations

import math
from typing import Any

import orjson
import pytest
from neo4j.graph import Graph, Node
from neo4j.spatial import CartesianPoint, WGS84Point
from neo4j.time import Date, DateTime, Duration

from service.domain.query.guard import ALLOWED_PROCEDURES, refusal
from service.store.cypher_values import to_json


def op(kind: str, details: str = "", *children: dict[str, Any]) -> dict[str, Any]:
    return {"operatorType": kind, "args": {"Details": details}, "children": list(children)}


def read(*children: dict[str, Any]) -> dict[str, Any]:
    return op("ProduceResults@neo4j", "n", *children)


def test_a_plain_read_passes() -> None:
    plan = read(op("Limit@neo4j", "1", op("NodeByLabelScan@neo4j", "n:Asset")))
    assert refusal("r", plan) is None


@pytest.mark.parametrize(
    "leaf",
    [
        op("AllNodesScan@neo4j", "n"),
        op("PartitionedAllNodesScan@neo4j", "n"),
        op("NodeByIdSeek@neo4j", "n WHERE id(n) = $autoint_0"),
        op("NodeByElementIdSeek@neo4j", "n WHERE elementId(n) = $autostring_0"),
        op("Filter@neo4j", "n:$all($l)", op("NodeByLabelScan@neo4j", "n:Asset")),
    ],
)
def test_nodes_found_without_a_label_are_refused(leaf: dict[str, Any]) -> None:
    reason = refusal("r", read(op("Projection@neo4j", "properties(n) AS p", leaf)))
    assert reason is not None and "without a label" in reason


@pytest.mark.parametrize(
    ("details", "named"),
    [
        ("u:User", "User"),
        ("n:Asset|User", "User"),
        ("count( (:Session) ) AS `n`", "Session"),
        ("UNIQUE t:ApiToken(hash) WHERE hash = $autostring_0", "ApiToken"),
        ("NOT n:Asset AND n:`IdempotencyRecord`", "IdempotencyRecord"),
        ("a.password_hash AS h", "password_hash"),
        ("s.`csrf` AS c", "csrf"),
        ("f:SignInFlow", "SignInFlow"),
        ("f.code_verifier AS v", "code_verifier"),
    ],
)
def test_the_labels_and_properties_of_secrets_are_refused(details: str, named: str) -> None:
    reason = refusal("r", read(op("Filter@neo4j", details, op("NodeByLabelScan@neo4j", "a:Asset"))))
    assert reason is not None and named in reason


@pytest.mark.parametrize(
    "details", ["n.username AS u", "n:UserGroup", "n:Asset AND n.hash = $autostring_0", "Users"]
)
def test_names_that_only_resemble_secrets_pass(details: str) -> None:
    plan = read(op("Projection@neo4j", details, op("NodeByLabelScan@neo4j", "n:Asset")))
    assert refusal("r", plan) is None


@pytest.mark.parametrize("kind", ["w", "rw", "s", None, ""])
def test_anything_but_a_read_query_type_is_refused(kind: str | None) -> None:
    reason = refusal(kind, read(op("Create@neo4j", "(n)")))
    assert reason is not None and "not read-only" in reason


@pytest.mark.parametrize("name", sorted(ALLOWED_PROCEDURES))
def test_schema_introspection_procedures_pass(name: str) -> None:
    plan = read(op("ProcedureCall@neo4j", f"{name}() :: (label :: STRING)"))
    assert refusal("r", plan) is None


@pytest.mark.parametrize(
    "details",
    [
        "db.awaitIndexes($autoint_0) :: ()",
        "db.info() :: (id :: STRING)",
        "dbms.components() :: (name :: STRING)",
        "apoc.load.json($url) :: (value :: MAP)",
        "db.labelsX() :: (label :: STRING)",
        "",
    ],
)
def test_other_procedures_are_refused_even_when_typed_read(details: str) -> None:
    reason = refusal("r", read(op("ProcedureCall@neo4j", details)))
    assert reason is not None and reason.startswith("procedure ")


@pytest.mark.parametrize(
    "kind",
    [
        "LoadCSV@neo4j",
        "ShowIndexes@neo4j",
        "ShowTransactions@neo4j",
        "ShowProcedures@neo4j",
        "TerminateTransactions@neo4j",
        "AdministrationCommand@system",
        "TransactionApply@neo4j",
        "TransactionForeach@neo4j",
        "CreateIndex@neo4j",
        "Projection@system",
    ],
)
def test_operators_that_reach_outside_the_graph_are_refused_deep_in_the_plan(kind: str) -> None:
    plan = read(op("Apply@neo4j", "", op("Argument@neo4j"), op(kind, "row")))
    assert refusal("r", plan) is not None


def test_no_plan_is_refused() -> None:
    assert refusal("r", None) is not None


def test_scalars_and_collections_pass_through() -> None:
    value = {"a": [1, "x", True, None, 2.5], "b": {"c": (1, 2)}}
    assert to_json(value) == {"a": [1, "x", True, None, 2.5], "b": {"c": [1, 2]}}


def test_values_json_cannot_hold_become_json() -> None:
    assert to_json(math.nan) is None and to_json(math.inf) is None
    assert to_json(b"\x00\xff") == "AP8="
    assert to_json(Date(2024, 2, 29)) == "2024-02-29"
    assert to_json(DateTime(2024, 2, 29, 12, 30, 0)) == "2024-02-29T12:30:00.000000000"
    assert to_json(Duration(days=1, hours=2)) == "P1DT2H"
    assert to_json(CartesianPoint((1.0, 2.0))) == {"srid": 7203, "coordinates": [1.0, 2.0]}
    assert to_json(WGS84Point((4.9, 52.4, 3.0)))["srid"] == 4979


def test_a_node_is_its_element_id_labels_and_properties() -> None:
    node = Node(Graph(), "4:abc:1", 1, ["Asset", "Extra"], {"id": "a", "at": Date(2024, 1, 1)})
    assert to_json(node) == {
        "element_id": "4:abc:1",
        "labels": ["Asset", "Extra"],
        "properties": {"id": "a", "at": "2024-01-01"},
    }
    assert orjson.loads(orjson.dumps(to_json([node])))[0]["labels"] == ["Asset", "Extra"]
