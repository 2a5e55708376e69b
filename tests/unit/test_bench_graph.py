"""The benchmark's synthetic warehouse is a layered DAG with realistic fan-in."""

from bench.lineage import warehouse


def test_warehouse_is_layered_acyclic_and_about_three_parents_each() -> None:
    edges = warehouse(assets=2000, layers=10)
    assert len(edges) == len(set(edges))
    for source, target in edges:
        assert int(source[1:3]) < int(target[1:3]), (source, target)
    children = {t for _, t in edges}
    assert len(children) == 1800
    assert 2.5 < len(edges) / len(children) < 3.5


def test_warehouse_is_deterministic() -> None:
    assert warehouse(500, 5) == warehouse(500, 5)
