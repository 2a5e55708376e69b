"""The history benchmark's store growth: files counted by kind, bytes per change fitted."""

from pathlib import Path

import pytest

from bench.history_growth import Growth, Line, Size, high_water, measure


def write(path: Path, size: int, zeros: int = 0) -> None:
    """`size` bytes of data, then `zeros` allocated ahead."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\1" * size + b"\0" * zeros)


def test_store_files_are_counted_by_kind_and_transaction_logs_apart(tmp_path: Path) -> None:
    store = tmp_path / "databases" / "neo4j"
    write(store / "neostore.nodestore.db", 10)
    write(store / "neostore.relationshipstore.db", 20)
    write(store / "neostore.propertystore.db", 30)
    write(store / "neostore.propertystore.db.strings", 40)
    write(store / "neostore.propertystore.db.arrays", 50, zeros=1_000)
    write(store / "neostore.propertystore.db.arrays.id", 6)
    write(store / "schema" / "index" / "range-1.0" / "3" / "index-3", 70)
    write(store / "neostore.counts.db", 8)
    write(tmp_path / "transactions" / "neo4j" / "neostore.transaction.db.0", 900)

    size = measure(tmp_path)

    assert size.files == {
        "nodes": 10,
        "relationships": 20,
        "properties": 30,
        "strings": 40,
        "arrays": 1_050,
        "id files": 6,
        "indexes": 70,
        "other": 8,
    }
    assert size.used["arrays"] == 50
    assert size.used["indexes"] == 70
    assert size.store == 1_234
    assert size.in_use == 234
    assert size.logs == 900


def test_the_high_water_mark_skips_zeros_allocated_ahead_across_blocks(tmp_path: Path) -> None:
    path = tmp_path / "store"
    path.write_bytes(b"\0" * 10 + b"\7" + b"\0" * 5 + b"\3" + b"\0" * 100)
    assert high_water(path, block=8) == 17
    path.write_bytes(b"\0" * 64)
    assert high_water(path, block=8) == 0


def test_a_line_through_points_on_it_has_their_slope_and_no_distance() -> None:
    line = Line.through([(0, 1_000), (100, 51_000), (300, 151_000)])
    assert line.slope == pytest.approx(500)
    assert line.intercept == pytest.approx(1_000)
    assert line.worst == pytest.approx(0)


def test_a_step_weighs_as_one_point_of_several() -> None:
    line = Line.through([(0, 0), (1, 0), (2, 100), (3, 100)])
    assert line.slope == pytest.approx(40)
    assert line.worst == pytest.approx(30)


def test_measured_every_n_rounds_and_where_changes_pass_a_million() -> None:
    assert Growth(100_554, 31_962, 11, 10, every=2).checkpoints() == [2, 4, 6, 8, 10, 11]
    assert Growth(62_696, 19_979, 10, 10).checkpoints() == [3, 6, 10]


def test_each_phase_is_fitted_from_the_point_before_it() -> None:
    growth = Growth(edges=10, assets=5, rounds=2, million=2, every=1)
    for phase, changes, store in (
        ("live", 0, 1_000),
        ("versions", 5, 1_500),
        ("versions", 10, 2_000),
        ("edges", 10, 3_000),
        ("edges", 20, 4_000),
    ):
        growth.add(phase, changes, Size({"nodes": store * 2}, {"nodes": store}, 0))

    assert growth.per_asset_version() == pytest.approx(200)
    assert growth.per_edge_change() == pytest.approx(200)
    assert growth.line("edges", in_use=True).slope == pytest.approx(100)
    assert growth.per_edge_change_at_million() == pytest.approx(200)
