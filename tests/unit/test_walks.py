"""The multi-source walk behind the lineage policy kinds: nearest sources, ways back,
and each asset expanded a bounded number of times."""

from __future__ import annotations

from collections.abc import Iterable

from service.domain.walks import Walk


def _run(walk: Walk, edges: list[tuple[str, str]], depth: int = 50) -> list[int]:
    """Drive the walk like the store does; answers the frontier size of each hop."""
    children: dict[str, list[str]] = {}
    for source, target in edges:
        children.setdefault(source, []).append(target)
    sizes = []
    for _ in range(depth):
        if not walk.frontier:
            break
        sizes.append(len(walk.frontier))
        steps: Iterable[tuple[str, str]] = [
            (node, child) for node in walk.frontier_ids() for child in children.get(node, [])
        ]
        walk.advance(steps)
    return sizes


def test_each_asset_takes_its_nearest_source_and_knows_the_way_back() -> None:
    edges = [("s1", "a"), ("a", "b"), ("b", "c"), ("s2", "c"), ("c", "d"), ("d", "b")]
    walk = Walk.start(["s1", "s2"])
    _run(walk, edges)
    label = walk.nearest("d")
    assert label is not None and (label.origin, label.distance) == ("s2", 2)
    assert walk.way_back("d", label) == ["d", "c", "s2"]
    b = walk.nearest("b")
    assert b is not None and (b.origin, b.distance) == ("s1", 2)


def test_depth_bounds_the_walk() -> None:
    walk = Walk.start(["s"])
    _run(walk, [("s", "a"), ("a", "b"), ("b", "c")], depth=2)
    assert set(walk.reached) == {"s", "a", "b"}


def test_two_labels_tell_a_source_of_the_nearest_other_source() -> None:
    edges = [("t1", "x"), ("x", "t2"), ("t2", "y"), ("y", "t1")]  # a ring through both
    walk = Walk.start(["t1", "t2"], labels=2)
    _run(walk, edges)
    other = walk.nearest("t1", other_than="t1")
    assert other is not None and (other.origin, other.distance) == ("t2", 2)
    assert walk.way_back("t1", other) == ["t1", "y", "t2"]
    assert walk.nearest("t1", other_than="t2") is not None


def test_a_lattice_of_2_to_the_40_paths_is_walked_in_linear_steps() -> None:
    edges = [("top", "l0"), ("top", "r0")]
    for i in range(40):
        edges += [(f"{x}{i}", f"{y}{i + 1}") for x in "lr" for y in "lr"]
    one = Walk.start(["top"])
    assert sum(_run(one, edges)) == 1 + 2 * 41  # every asset expanded once
    two = Walk.start(["top", "l0"], labels=2)
    assert sum(_run(two, edges)) <= 2 * (1 + 2 * 41)  # at most twice with two labels
    label = one.nearest("r40")
    assert label is not None and label.distance == 41
    assert len(one.way_back("r40", label)) == 42
