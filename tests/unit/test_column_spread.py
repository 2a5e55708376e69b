"""The breadth-first tree of one tag over a region of column lineage: fewest hops from
the nearest tagged column, ties broken the same way every time, columns outside the
region feeding in at their distance, and the difference from what was stored."""

from __future__ import annotations

from service.domain.column_spread import Feed, Held, RegionColumn, recompute


def _col(key: str, *feeds: Feed, direct: bool = False, before: Held | None = None) -> RegionColumn:
    return RegionColumn(key, key.split(".")[0], key.split(".")[1], direct, before, feeds)


def test_a_chain_inherits_with_one_parent_each_and_distances() -> None:
    change = recompute(
        [
            _col("a.x", direct=True),
            _col("b.x", Feed("a.x", "identity", True)),
            _col("c.x", Feed("b.x", "transformation", False)),
        ]
    )
    assert change.drop == []
    assert change.rows == [
        {"key": "b.x", "parent": "a.x", "source": "a.x", "distance": 1, "kind": "identity"},
        {"key": "c.x", "parent": "b.x", "source": "a.x", "distance": 2, "kind": "transformation"},
    ]
    assert [(c.key, h.distance) for c, h in change.gained] == [("b.x", 1), ("c.x", 2)]


def test_the_nearest_source_wins_and_ties_go_to_the_smaller_source() -> None:
    change = recompute(
        [
            _col(
                "d.x", Feed("z.far", "identity", False, 3, "z.src"), Feed("c.x", "identity", False)
            ),
            _col("c.x", Feed("m.y", "identity", True), Feed("b.y", "identity", True)),
        ]
    )
    rows = {r["key"]: r for r in change.rows}
    assert rows["c.x"]["source"] == "b.y"
    assert rows["d.x"] == {
        "key": "d.x",
        "parent": "c.x",
        "source": "b.y",
        "distance": 2,
        "kind": "identity",
    }


def test_a_cycle_terminates_and_a_directly_tagged_column_inherits_nothing() -> None:
    change = recompute(
        [
            _col("a.x", Feed("b.x", "identity", False), direct=True),
            _col("b.x", Feed("a.x", "identity", False)),
        ]
    )
    assert [r["key"] for r in change.rows] == ["b.x"]


def test_losing_the_source_drops_and_announces_what_was_held() -> None:
    held = Held(1, "a.x", "a.x", "identity")
    change = recompute([_col("a.x"), _col("b.x", Feed("a.x", "identity", False), before=held)])
    assert change.drop == ["b.x"]
    assert change.rows == []
    assert [(c.key, h) for c, h in change.lost] == [("b.x", held)]
    same = recompute(
        [_col("a.x", direct=True), _col("b.x", Feed("a.x", "identity", False), before=held)]
    )
    assert same.drop == [] and same.rows == [] and same.gained == [] and same.lost == []


def test_inheritance_deleted_with_what_it_ran_through_is_lost_unless_found_again() -> None:
    held = Held(1, "gone.x", "gone.x", "identity")
    below = Held(2, "gone.x", "b.x", "identity")
    change = recompute(
        [
            _col("b.x"),  # its inheritance went with gone.x: nothing feeds it now
            _col("c.x", Feed("b.x", "identity", False), before=below),
            _col("d.x", Feed("t.y", "identity", True)),  # another tagged column feeds it
        ],
        [_col("b.x", before=held), _col("d.x", before=held), _col("e.x", before=held)],
    )
    # e.x went with the mappings: it is not in the region, and lost the tag too.
    assert [(c.key, h) for c, h in change.lost] == [("b.x", held), ("c.x", below), ("e.x", held)]
    assert change.gained == []
    assert change.drop == ["b.x", "c.x", "d.x"]
    assert change.rows == [
        {"key": "d.x", "parent": "t.y", "source": "t.y", "distance": 1, "kind": "identity"}
    ]
