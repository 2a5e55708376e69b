"""Pure column-lineage logic: keys, folding a request's mappings, assembling a column
graph answer, and a manifest's column rows."""

from __future__ import annotations

from service.domain.dbt.contents import ColumnLineage, DbtColumnEdge
from service.domain.dbt_manifest import ManifestContents
from service.domain.lineage import (
    ReachedColumn,
    assemble_columns,
    column_key,
    column_rows,
    edge_rows,
)
from service.domain.manifest_plan import plan_column_edges
from service.models.lineage import ColumnMapIn, ColumnRef, EdgeIn


def _edge(source: str, target: str, *columns: tuple[str, str, str | None]) -> EdgeIn:
    return EdgeIn(
        source=source,
        target=target,
        columns=[ColumnMapIn(source=s, target=t, transformation=x) for s, t, x in columns],
    )


def test_a_column_key_splits_at_the_first_newline() -> None:
    key = column_key("s3://lake/raw", "a\tb c")
    assert key == "s3://lake/raw\na\tb c"
    assert key.split("\n", 1) == ["s3://lake/raw", "a\tb c"]


def test_duplicate_mappings_fold_to_one_the_last_transformation_winning() -> None:
    rows = column_rows(
        [
            _edge("b", "c", ("x", "y", "first")),
            _edge("a", "b", ("id", "id", None)),
            _edge("b", "c", ("x", "y", "second"), ("x", "y", None)),
        ]
    )
    assert [(r["source_key"], r["target_key"], r["transformation"]) for r in rows] == [
        ("a\nid", "b\nid", None),
        ("b\nx", "c\ny", "second"),
    ]
    assert rows[0]["at"] is None and rows[0]["source_column"] == "id"


def test_edge_rows_leave_the_columns_to_their_own_statement() -> None:
    rows = edge_rows([_edge("a", "b", ("x", "y", None))])
    assert rows == [{"source": "a", "target": "b", "transformation": None}]


def test_a_column_graph_keeps_the_nearest_and_the_edges_among_them() -> None:
    root = ColumnRef(asset="a", column="x")
    reached = [
        ReachedColumn("c", "z", 2),
        ReachedColumn("b", "y", 1),
        ReachedColumn("b", "w", 1),
        ReachedColumn("a", "x", 3),  # the root again through a cycle
    ]
    adjacent = [
        ("a", "x", "b", "y", "f(x)"),
        ("a", "x", "b", "w", None),
        ("b", "y", "c", "z", None),
        ("b", "y", "c", "z", None),
    ]
    nodes, edges, truncated = assemble_columns(root, reached, adjacent, limit=3)
    assert [(n.asset, n.column, n.distance) for n in nodes] == [
        ("a", "x", 0),
        ("b", "w", 1),
        ("b", "y", 1),
    ]
    assert truncated is True
    assert [(e.source.column, e.target.column, e.transformation) for e in edges] == [
        ("x", "w", None),
        ("x", "y", "f(x)"),
    ]
    _, all_edges, more = assemble_columns(root, reached, adjacent, limit=10)
    assert more is False and len(all_edges) == 3


def test_a_manifests_column_rows_follow_the_edges_being_written() -> None:
    contents = ManifestContents(
        project="p",
        dbt_version=None,
        schema_version=None,
        adapter="duckdb",
        assets=(),
        edges=(),
        rules=(),
        skipped=0,
        warnings=(),
        column_lineage=ColumnLineage(
            edges=(
                DbtColumnEdge("seed.a", "id", "model.b", "a_id", None),
                DbtColumnEdge("seed.gone", "id", "model.b", "g_id", None),
                DbtColumnEdge("seed.a", "v", "model.b", "total", "SUM(v)"),
            )
        ),
    )
    rows = plan_column_edges(contents, {("seed.a", "model.b")})
    assert [(r["source_key"], r["target_key"], r["transformation"]) for r in rows] == [
        ("seed.a\nid", "model.b\na_id", None),
        ("seed.a\nv", "model.b\ntotal", "SUM(v)"),
    ]
