"""Reading `as_of` instants and comparing two traversal answers, without a database."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.history import (
    OPEN,
    as_of_params,
    diff,
    instant_ms,
    parse_instant,
)

NOW = "2026-06-01T12:00:00.000Z"


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("2026-03-01T10:00:00Z", "2026-03-01T10:00:00.000Z"),
        ("2026-03-01t10:00:00z", "2026-03-01T10:00:00.000Z"),
        ("2026-03-01 10:00:00Z", "2026-03-01T10:00:00.000Z"),
        ("2026-03-01T10:00:00.123456789Z", "2026-03-01T10:00:00.123Z"),
        ("2026-03-01T12:30:00+02:30", "2026-03-01T10:00:00.000Z"),
        ("2026-03-01T00:30:00-01:00", "2026-03-01T01:30:00.000Z"),
        # a `+` left unencoded in a query string arrives as a space
        ("2026-03-01T12:00:00 02:00", "2026-03-01T10:00:00.000Z"),
        ("2026-01-01T00:30:00+01:00", "2025-12-31T23:30:00.000Z"),
    ],
)
def test_an_instant_with_an_offset_reads_as_the_graph_stores_it(raw: str, stored: str) -> None:
    assert parse_instant(raw, NOW) == stored


def test_an_instant_in_the_future_reads_as_now() -> None:
    assert parse_instant("2999-01-01T00:00:00Z", NOW) == NOW
    assert parse_instant("9999-12-31T23:59:59.999Z", NOW) == NOW


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "yesterday",
        "2026-03-01",  # a day is no instant
        "2026-03-01T10:00:00",  # no offset: whose ten o'clock?
        "2026-03-01T10:00Z",
        "2026-13-01T10:00:00Z",
        "2026-02-30T10:00:00Z",
        "2026-03-01T24:00:00Z",
        "2026-03-01T10:00:60Z",
        "2026-03-01T10:00:00+25:00",
        "20260301T100000Z",
        "2026-03-01T10:00:00.Z",
        "٢٠٢٦-03-01T10:00:00Z",
    ],
)
def test_anything_else_is_no_instant(raw: str) -> None:
    assert parse_instant(raw, NOW) is None


def test_every_stored_instant_sorts_before_the_open_sentinel() -> None:
    assert parse_instant("9999-12-31T23:59:59.998Z", "9999-12-31T23:59:59.998Z") is not None
    assert OPEN > "9999-12-31T23:59:59.998Z"


@pytest.mark.parametrize(
    ("stored", "ms"),
    [
        ("1970-01-01T00:00:00.000Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2026-03-01T10:00:00.123Z", 1_772_359_200_123),
        (OPEN, 253_402_300_799_999),
    ],
)
def test_a_stored_instant_in_epoch_milliseconds(stored: str, ms: int) -> None:
    assert instant_ms(stored) == ms


def test_epoch_milliseconds_keep_the_order_of_stored_instants() -> None:
    stored = sorted(
        [
            "0001-01-01T00:00:00.000Z",
            "2024-02-29T23:59:59.999Z",
            "2024-03-01T00:00:00.000Z",
            "2026-03-01T10:00:00.123Z",
            "2026-03-01T10:00:00.124Z",
            OPEN,
        ]
    )
    assert [instant_ms(s) for s in stored] == sorted(instant_ms(s) for s in stored)
    assert len({instant_ms(s) for s in stored}) == len(stored)
    assert max(instant_ms(s) for s in stored) == instant_ms(OPEN)


def test_an_as_of_instant_and_its_milliseconds_name_the_same_moment() -> None:
    # what the walk compares as an integer is the parsed instant, whatever its offset
    asked = parse_instant("2026-03-01T12:30:00.5+02:30", NOW)
    assert asked == "2026-03-01T10:00:00.500Z"
    assert instant_ms(asked) == instant_ms("2026-03-01T10:00:00.000Z") + 500


def test_an_as_of_walk_is_given_the_instant_and_its_milliseconds_never_after_now() -> None:
    past = "2026-03-01T10:00:00.000Z"
    assert as_of_params(past, NOW) == {"as_of": past, "as_of_ms": instant_ms(past)}
    assert as_of_params("2027-01-01T00:00:00.000Z", NOW) == {
        "as_of": NOW,
        "as_of_ms": instant_ms(NOW),
    }


def node(node_id: str, distance: int = 1, name: str | None = None) -> dict[str, Any]:
    return {
        "id": node_id,
        "name": name or node_id,
        "type": "table",
        "platform": None,
        "tags": [],
        "placeholder": False,
        "distance": distance,
        "direction": "downstream" if distance else "root",
    }


def edge(source: str, target: str, transformation: str | None = None) -> dict[str, Any]:
    return {"source": source, "target": target, "transformation": transformation}


def test_the_diff_lists_what_each_side_alone_holds_sorted() -> None:
    before = [node("r", 0), node("b"), node("gone", 2)]
    after = [node("r", 0), node("b"), node("new", 2), node("a.new", 1)]
    changes = diff(
        before,
        [edge("r", "b"), edge("b", "gone")],
        after,
        [edge("r", "b"), edge("b", "new", "x"), edge("r", "a.new")],
    )
    assert [n["id"] for n in changes["added"]["nodes"]] == ["a.new", "new"]
    assert changes["added"]["edges"] == [edge("b", "new", "x"), edge("r", "a.new")]
    assert changes["removed"] == {"nodes": [node("gone", 2)], "edges": [edge("b", "gone")]}
    assert changes["changed"] == {"edges": []}


def test_a_changed_transformation_is_changed_not_added_and_removed() -> None:
    nodes = [node("r", 0), node("b")]
    changes = diff(nodes, [edge("r", "b", "v1")], nodes, [edge("r", "b", "v2")])
    assert changes["added"] == changes["removed"] == {"nodes": [], "edges": []}
    assert changes["changed"]["edges"] == [
        {**edge("r", "b", "v2"), "previous_transformation": "v1"}
    ]
    cleared = diff(nodes, [edge("r", "b", "v1")], nodes, [edge("r", "b")])
    assert cleared["changed"]["edges"] == [{**edge("r", "b"), "previous_transformation": "v1"}]


def test_a_node_is_shown_as_the_side_that_holds_it_and_a_rename_is_no_change() -> None:
    changes = diff([node("r", 0, "Old")], [], [node("r", 0, "New"), node("b")], [edge("r", "b")])
    assert changes["added"]["nodes"] == [node("b")]
    assert changes["removed"]["nodes"] == []


def test_an_empty_side_makes_everything_added_or_removed() -> None:
    nodes, edges = [node("a", 0), node("b")], [edge("a", "b")]  # already sorted
    assert diff([], [], nodes, edges)["added"] == {"nodes": nodes, "edges": edges}
    assert diff(nodes, edges, [], [])["removed"] == {"nodes": nodes, "edges": edges}
