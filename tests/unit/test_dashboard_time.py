"""The dashboard through time, without a browser: the lineage page's time fields read as
instants, a compared view marked from the diff, and the History tab's words for each
change."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from starlette.requests import Request

from service.dashboard.asset_history import ChangeLine, line, row, shown
from service.dashboard.lineage_time import instant, marked
from service.domain.history import diff
from service.domain.lineage import LineageView
from service.errors import Unprocessable
from service.models.asset_history import AssetChange, AssetVersion


def query(**params: str) -> Request:
    scope = {"type": "http", "method": "GET", "path": "/", "headers": []}
    return Request({**scope, "query_string": urlencode(params).encode()})


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("2020-03-01T10:00:00Z", "2020-03-01T10:00:00.000Z"),
        ("2020-03-01T11:30:00.5+01:30", "2020-03-01T10:00:00.500Z"),
        # What <input type="datetime-local"> sends has no offset: the page means UTC.
        ("2020-03-01T10:00", "2020-03-01T10:00:00.000Z"),
        ("2020-03-01T10:00:07", "2020-03-01T10:00:07.000Z"),
        ("2020-03-01T10:00:07.123", "2020-03-01T10:00:07.123Z"),
    ],
)
def test_a_time_field_reads_rfc_3339_or_a_utc_date_time(given: str, read: str) -> None:
    assert instant(query(as_of=given), "as_of") == read


def test_an_empty_time_field_asks_for_now() -> None:
    assert instant(query(as_of=""), "as_of") is None
    assert instant(query(), "compare") is None


@pytest.mark.parametrize(
    "given", ["last tuesday", "2020-03-01", "2020-13-01T10:00", "2020-03-01T10:00Z" + "0" * 80]
)
def test_a_time_field_that_is_no_moment_is_refused_naming_it(given: str) -> None:
    with pytest.raises(Unprocessable) as refused:
        instant(query(compare=given), "compare")
    assert refused.value.errors is not None
    assert refused.value.errors[0].loc == ("query", "compare")


def node(node_id: str, direction: str = "downstream", distance: int = 1) -> dict[str, Any]:
    return {"id": node_id, "name": node_id, "direction": direction, "distance": distance}


def view(nodes: list[dict[str, Any]], pairs: list[tuple[str, str]]) -> LineageView:
    edges = [{"source": s, "target": t, "transformation": None} for s, t in pairs]
    return LineageView("b", "both", 2, nodes, edges, False)


def test_a_compared_view_is_the_later_graph_and_what_the_earlier_lost() -> None:
    earlier = view(
        [node("b", "root", 0), node("a", "upstream"), node("c")], [("a", "b"), ("b", "c")]
    )
    later = view([node("b", "root", 0), node("a", "upstream"), node("d")], [("a", "b"), ("b", "d")])
    changes = diff(earlier.nodes, earlier.edges, later.nodes, later.edges)
    drawn = marked(later, {**changes, "truncated": False})
    assert {n["id"]: n["change"] for n in drawn.nodes} == {
        "b": None,
        "a": None,
        "d": "added",
        "c": "removed",
    }
    assert {(e["source"], e["target"]): e["change"] for e in drawn.edges} == {
        ("a", "b"): None,
        ("b", "d"): "added",
        ("b", "c"): "removed",
    }
    removed = next(n for n in drawn.nodes if n["id"] == "c")
    assert (removed["direction"], removed["distance"]) == ("downstream", 1)


def test_a_compared_view_is_truncated_when_either_moment_was() -> None:
    later = view([node("b", "root", 0)], [])
    changes = diff([], [], later.nodes, later.edges)
    assert marked(later, {**changes, "truncated": True}).truncated


def change(**fields: Any) -> AssetChange:
    return AssetChange.model_validate(fields)


def test_history_says_each_field_change_from_old_to_new() -> None:
    assert line(change(field="description", change="set", **{"from": "a", "to": "b"})) == (
        ChangeLine("description", "set", "a", "b")
    )
    owners = change(field="owners", change="set", **{"from": None, "to": ["ann", "bo"]})
    assert line(owners) == ChangeLine("owners", "set", "—", "ann, bo")
    dataset = {"namespace": "duckdb://w", "name": "db.s.t"}
    assert shown(dataset) == "duckdb://w db.s.t"
    assert shown(True) == "yes"
    assert shown([]) == "—"


def test_history_says_columns_added_removed_retyped_and_changed() -> None:
    old = {"name": "id", "type": "int", "description": "key", "tags": []}
    new = {"name": "id", "type": "bigint", "description": "key", "tags": ["pk"]}
    added = change(field="columns", column="id", change="added", to=new)
    assert line(added) == ChangeLine("column id", "added", None, "bigint")
    removed = change(field="columns", column="id", change="removed", **{"from": old})
    assert line(removed) == ChangeLine("column id", "removed", "int", None)
    retyped = change(field="columns", column="id", change="retyped", to=new, **{"from": old})
    assert line(retyped) == ChangeLine("column id", "retyped", "int", "bigint")
    tagged = change(
        field="columns", column="id", change="changed", to=new, **{"from": {**new, "tags": []}}
    )
    assert line(tagged) == ChangeLine("column id", "changed", "key", "key; tags pk")
    untyped = change(field="columns", column="x", change="added", to={"name": "x"})
    assert line(untyped) == ChangeLine("column x", "added", None, None)


def test_the_oldest_version_reads_as_what_the_asset_was_created_with() -> None:
    created = AssetVersion(
        version=1,
        at="2026-01-01T00:00:00.000Z",
        actor="user:u1",
        deleted=False,
        changes=[
            change(field="placeholder", change="set", **{"from": None, "to": False}),
            change(field="name", change="set", **{"from": None, "to": "orders"}),
            change(field="columns", column="id", change="added", to={"name": "id", "type": "int"}),
        ],
    )
    assert row(created, first=True).lines == [
        ChangeLine("name", "set", None, "orders"),
        ChangeLine("column id", "added", None, "int"),
    ]
    assert len(row(created, first=False).lines) == 3
