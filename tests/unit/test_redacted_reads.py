"""Redaction beyond the traversal, as pure logic: a lineage diff, a column traversal and a
change-impact report show an asset the caller may not read as a stand-in naming only its
team, one stand-in per asset across the answer, every item still listed; the CLI prints
such a report without anything of the hidden asset."""

from __future__ import annotations

from typing import Any

import orjson

from service.cli_report import markdown, sarif, text
from service.domain.access.principal import Principal
from service.domain.access.scopes import Scope
from service.domain.impact_redaction import hiding
from service.domain.impact_walk import Step, Walk
from service.domain.lineage_pages import NO_FILTERS, Filters, page_params
from service.domain.redaction import redact_columns, redact_diff
from service.models.lineage import ColumnEdge, ColumnNode, ColumnRef, RedactedColumnNode

OUTSIDER = Principal("tok_1", "t", Scope.READ, "usr_1", "editor", {"sales": "viewer"})
MEMBER = Principal("tok_2", "t", Scope.READ, "usr_2", "viewer", {"finance": "viewer"})
PRIVATE: dict[str, Any] = {"domain": "finance", "private": True}
PUBLIC: dict[str, Any] = {"domain": None, "private": False}
PLACES: dict[str, dict[str, Any]] = {
    "raw": PUBLIC,
    "mart": PUBLIC,
    "fin.secret": PRIVATE,
    "fin.report": PRIVATE,
}
TEAMS = {"finance": "fin"}


def node(asset_id: str, distance: int) -> dict[str, Any]:
    return {
        "id": asset_id,
        "name": f"{asset_id} name",
        "type": "table",
        "platform": None,
        "tags": [],
        "placeholder": False,
        "distance": distance,
        "direction": "downstream",
        **PLACES[asset_id],
    }


def edge(source: str, target: str, transformation: str | None = None) -> dict[str, Any]:
    return {"source": source, "target": target, "transformation": transformation}


DIFF = {
    "added": {"nodes": [node("fin.report", 2), node("mart", 1)], "edges": []},
    "removed": {"nodes": [], "edges": [edge("fin.secret", "fin.report", "sum(salary)")]},
    "changed": {
        "edges": [{**edge("raw", "fin.secret", "v2"), "previous_transformation": "v1"}],
    },
}


def test_a_diff_numbers_each_hidden_asset_once_across_its_lists() -> None:
    shown, count = redact_diff(OUTSIDER, DIFF, PLACES, TEAMS)
    assert count == 2
    # the readable node first: where a hidden id sorts tells nothing
    assert [(n["id"], n.get("team")) for n in shown["added"]["nodes"]] == [
        ("mart", None),
        ("redacted:1", "fin"),
    ]
    assert "domain" not in shown["added"]["nodes"][0]
    assert shown["removed"]["edges"] == [edge("redacted:2", "redacted:1")]
    assert shown["changed"]["edges"] == [
        {**edge("raw", "redacted:2"), "previous_transformation": None}
    ]
    assert "fin." not in orjson.dumps(shown).decode()


def test_a_diffs_hidden_nodes_are_numbered_in_a_fresh_order_per_answer() -> None:
    """Within a list, not by id (which would tell how the hidden ids sort)."""
    hidden = ("fin.a", "fin.b", "fin.c")  # told apart after redaction by their distances
    places = {**PLACES, **dict.fromkeys(hidden, PRIVATE)}
    diff: dict[str, dict[str, list[dict[str, Any]]]] = {
        "added": {
            "nodes": [{**node("fin.report", d), "id": i} for d, i in enumerate(hidden, start=1)],
            "edges": [],
        },
        "removed": {"nodes": [], "edges": []},
        "changed": {"edges": []},
    }

    def numbered(shown: dict[str, Any]) -> list[tuple[str, int]]:
        return [(n["id"], n["distance"]) for n in shown["added"]["nodes"]]

    reverse, count = redact_diff(OUTSIDER, diff, places, TEAMS, lambda ids: list(reversed(ids)))
    assert count == 3
    assert numbered(reverse) == [("redacted:1", 3), ("redacted:2", 2), ("redacted:3", 1)]
    orders = {tuple(numbered(redact_diff(OUTSIDER, diff, places, TEAMS)[0])) for _ in range(200)}
    assert len(orders) > 1
    assert all(
        [i for i, _ in order] == ["redacted:1", "redacted:2", "redacted:3"] for order in orders
    )


def test_a_diff_redacts_nothing_for_a_member_of_the_domain() -> None:
    shown, count = redact_diff(MEMBER, DIFF, PLACES, TEAMS)
    assert count == 0
    assert [n["id"] for n in shown["added"]["nodes"]] == ["fin.report", "mart"]
    assert shown["changed"]["edges"][0]["previous_transformation"] == "v1"


def ref(asset: str, column: str) -> ColumnRef:
    return ColumnRef(asset=asset, column=column)


def test_columns_of_a_hidden_asset_lose_both_asset_and_column_name() -> None:
    nodes = [
        ColumnNode(asset="raw", column="id", distance=0),
        ColumnNode(asset="fin.secret", column="salary", distance=1),
        ColumnNode(asset="fin.report", column="bonus", distance=2),
        ColumnNode(asset="fin.secret", column="tax", distance=2),
        ColumnNode(asset="mart", column="total", distance=2),
    ]
    edges = [
        ColumnEdge(source=ref("raw", "id"), target=ref("fin.secret", "salary"), transformation="x"),
        ColumnEdge(source=ref("fin.secret", "salary"), target=ref("fin.report", "bonus")),
        ColumnEdge(source=ref("fin.secret", "salary"), target=ref("mart", "total")),
    ]
    shown = redact_columns(OUTSIDER, nodes, edges, PLACES, TEAMS)
    assert shown.count == 3
    assert [(n.asset, n.column, n.distance) for n in shown.nodes] == [
        ("raw", "id", 0),
        ("redacted:1", "redacted:1", 1),
        ("mart", "total", 2),
        ("redacted:2", "redacted:2", 2),
        ("redacted:1", "redacted:3", 2),  # another column of the same hidden asset
    ]
    assert all(n.team == "fin" for n in shown.nodes if isinstance(n, RedactedColumnNode))
    assert [(e.source.asset, e.target.asset, e.transformation) for e in shown.edges] == [
        ("raw", "redacted:1", None),
        ("redacted:1", "mart", None),
        ("redacted:1", "redacted:2", None),
    ]
    assert redact_columns(MEMBER, nodes, edges, PLACES, TEAMS).count == 0


def test_an_impact_walk_through_a_hidden_asset_keeps_its_path_under_stand_ins() -> None:
    walk = Walk([("raw", "id")], depth=3)
    walk.advance([Step(("raw", "id"), ("fin.secret", "salary"), ("cfo@x",))])
    walk.advance([Step(("fin.secret", "salary"), ("mart", None), ("bi@x",))])
    reached = walk.reached(excluded=set())
    nodes = [("raw", "id")] + [n for r in reached for n in r.path]
    hidden = hiding(OUTSIDER, nodes, PLACES, TEAMS)
    hidden.number(nodes)
    assert hidden.count == 1 and hidden.hidden("fin.secret") and not hidden.hidden("mart")
    assert [hidden.node(n) for n in reached[1].path] == [
        ("raw", "id"),
        ("redacted:1", "redacted:1"),
        ("mart", None),
    ]
    assert hidden.team("fin.secret") == "fin"
    # an asset with no place (one the candidate adds) is readable
    assert hiding(OUTSIDER, [("new", None)], PLACES, TEAMS).count == 0
    assert hiding(MEMBER, nodes, PLACES, TEAMS).count == 0


STAND_IN_REPORT: dict[str, Any] = {
    "project": "shop",
    "changes": [
        {"kind": "column_removed", "asset": "raw", "column": "id", "from": "int", "to": None, "breaking": True},
        {"kind": "column_removed", "asset": "redacted:1", "column": "redacted:1", "from": None, "to": None, "breaking": True, "redacted": True, "team": "fin"},
    ],
    "impacted": [
        {"asset": "redacted:2", "column": None, "distance": 1, "owners": [], "via": ["raw.id", "redacted:2"], "redacted": True, "team": "fin"},
    ],
    "breaking": True,
    "depth": 5,
    "redacted": 2,
}  # fmt: skip


def test_the_cli_prints_a_stand_in_with_its_team_where_owners_would_be() -> None:
    printed = text(STAND_IN_REPORT)
    assert "1  redacted:2  [hidden · team fin]  via raw.id -> redacted:2" in printed
    assert "column removed: redacted:1.redacted:1 (hidden · team fin)" in printed
    table = markdown(STAND_IN_REPORT)
    assert "| `redacted:2` (hidden · team fin) |  | 1 | hidden · team fin |" in table
    assert "| column_removed | `redacted:1` (hidden · team fin) | `redacted:1` |" in table
    results = sarif(STAND_IN_REPORT, {}, "target/manifest.json")["runs"][0]["results"]
    assert results[0]["message"]["text"].endswith("reaches 1 downstream asset: redacted:2")
    assert results[1]["message"]["text"] == (
        "column removed: redacted:1.redacted:1 (hidden · team fin); reaches 0 downstream assets"
    )


def test_a_filter_shows_no_asset_the_caller_may_not_read_whether_it_matches_or_not() -> None:
    secret = {**node("fin.secret", 1), "tags": ["pii"], "owners": []}
    by_tag, by_other = Filters(tag=("pii",)), Filters(tag=("gdpr",))
    assert by_tag.shows(secret) and not by_other.shows(secret)  # the service's own view
    assert not by_tag.shows(secret, ()) and not by_other.shows(secret, ())
    assert by_tag.shows(secret, ("finance",))  # a member sees the match
    assert NO_FILTERS.shows(secret, ())  # no filter: the stand-in keeps the path
    assert page_params(10, readable=("b", "a"))["given"]["readable"] == ["a", "b"]
    assert page_params(10)["given"]["readable"] is None
