"""Exporting a neighbourhood: each format escapes hostile ids, CSV is formula-safe, and
the OpenLineage events are valid for the official client and plan back into the same
edges, column mappings and columns."""

from __future__ import annotations

import csv
import io
import re

import orjson
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import JobFacet
from openlineage.client.generated import column_lineage_dataset as cl
from openlineage.client.generated import schema_dataset, sql_job
from openlineage.client.serde import Serde

from service.domain.lineage import DATASET_MARK, LineageView
from service.domain.lineage_export import (
    ColumnMapping,
    ExportColumn,
    ExportEdge,
    ExportNode,
    Neighbourhood,
    assemble,
    content_disposition,
    filename,
)
from service.domain.lineage_export_openlineage import events
from service.domain.lineage_export_text import csv_table, dot, mermaid
from service.domain.openlineage import ASSET_NAMESPACE, parse_events, plan_events

AT = "2026-11-27T10:00:00.000Z"
HOSTILE = 'a"];x[b#quot;`\\'  # a quote, brackets, an entity, a backtick, a backslash


def node(asset_id: str, distance: int = 1, **kw: object) -> ExportNode:
    direction = "root" if distance == 0 else "downstream"
    fields: dict[str, object] = {"name": asset_id, "type": "table", "platform": None}
    fields |= kw
    return ExportNode(id=asset_id, distance=distance, direction=direction, **fields)  # type: ignore[arg-type]


def graph(
    nodes: list[ExportNode], edges: list[ExportEdge], truncated: bool = False
) -> Neighbourhood:
    return Neighbourhood(nodes[0].id, "downstream", 5, truncated, tuple(nodes), tuple(edges))


def hostile_graph() -> Neighbourhood:
    return graph(
        [node("root.a", 0, name='Root "A"\nline two'), node(HOSTILE), node("=cmd|calc")],
        [
            ExportEdge("root.a", HOSTILE, 'select "x"\nfrom a'),
            ExportEdge(HOSTILE, "=cmd|calc", "@SUM(A1)"),
        ],
    )


# DOT --------------------------------------------------------------------------------

_DOT_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def dot_strings(text: str) -> list[str]:
    """Every quoted string of the DOT text, unescaped as an escString reads it."""
    return [
        re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], s)
        for s in _DOT_STRING.findall(text)
    ]


def test_dot_quotes_every_id_so_a_hostile_one_reads_back_whole() -> None:
    text = dot(hostile_graph(), AT)
    strings = dot_strings(text)
    assert HOSTILE in strings and "=cmd|calc" in strings
    assert 'Root "A"\nline two\nroot.a' in strings  # name and id as the label
    assert 'select "x"\nfrom a' in strings  # a transformation as an edge tooltip
    statements = [line for line in text.splitlines() if line.startswith("  ")]
    stripped = [_DOT_STRING.sub("S", line) for line in statements]
    assert "  S -> S [tooltip=S];" in stripped
    assert all('"' not in line and "\n" not in line for line in stripped)


def test_dot_marks_the_root_and_a_cut_neighbourhood() -> None:
    text = dot(graph([node("r", 0), node("s")], [ExportEdge("r", "s", None)], True), AT)
    assert '  "r" [label="r", penwidth=2];' in text
    assert '  "r" -> "s";' in text
    assert text.splitlines()[1].startswith("// truncated")


# Mermaid ----------------------------------------------------------------------------


def test_mermaid_names_nodes_by_position_and_escapes_every_label() -> None:
    text = mermaid(hostile_graph(), AT)
    labels = re.findall(r'^  (n\d+)\["([^"]*)"\]$', text, flags=re.MULTILINE)
    assert [name for name, _ in labels] == ["n0", "n1", "n2"]
    decoded = labels[1][1]
    for entity, char in (("#quot;", '"'), ("#96;", "`"), ("#35;", "#")):
        decoded = decoded.replace(entity, char)
    assert decoded == HOSTILE
    assert "  n0 --> n1" in text and "  n1 --> n2" in text
    assert "  class n0 root" in text


# CSV --------------------------------------------------------------------------------


def test_csv_is_one_table_of_nodes_edges_and_column_mappings() -> None:
    with_columns = graph(
        [node("a", 0), node("b")],
        [ExportEdge("a", "b", "copy", (ColumnMapping("id", "id", "DIRECT/IDENTITY"),))],
    )
    rows = list(csv.reader(io.StringIO(csv_table(with_columns, AT))))
    assert rows[0][:4] == ["kind", "source", "target", "transformation"]
    assert [r[0] for r in rows[1:]] == ["node", "node", "edge", "column"]
    assert rows[1] == ["node", "a", "", "", "", "", "a", "table", "", "0", "root"]
    assert rows[3][:4] == ["edge", "a", "b", "copy"]
    assert rows[4][:6] == ["column", "a", "b", "DIRECT/IDENTITY", "id", "id"]


def test_csv_cells_that_would_start_a_formula_are_prefixed() -> None:
    text = csv_table(hostile_graph(), AT)
    rows = list(csv.reader(io.StringIO(text)))
    assert "'=cmd|calc" in rows[3] and "'@SUM(A1)" in rows[5]
    assert rows[4][3] == 'select "x"\nfrom a'  # quoted, newline kept inside the cell
    cells = [c for r in rows for c in r]
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cells)
    assert text.endswith("\r\n")


def test_file_names_keep_only_safe_characters() -> None:
    assert (
        filename("s3://lake/raw/events.parquet", "csv") == "lineage-s3_lake_raw_events.parquet.csv"
    )
    assert filename('"..', "dot") == "lineage-asset.dot"
    disposition = content_disposition("café/x", "dot")
    assert disposition.startswith('attachment; filename="lineage-caf_x.dot"')
    assert "filename*=UTF-8''lineage-caf%C3%A9_x.dot" in disposition


# OpenLineage ------------------------------------------------------------------------


def rich_graph() -> Neighbourhood:
    """A plain asset, a dbt-like id, an OpenLineage dataset, two transformations into
    one target, column mappings of every kind, and two free texts into one column."""
    dataset = ("postgres://db:5432", "shop.public.orders")
    return graph(
        [
            node("raw.orders", 0, columns=(ExportColumn("id", "int", "key"),)),
            node("pg.orders", dataset=dataset, columns=(ExportColumn("id"), ExportColumn("n"))),
            node("model.shop.orders", columns=(ExportColumn("order_id", "int"),)),
        ],
        [
            ExportEdge(
                "pg.orders",
                "model.shop.orders",
                "select id from orders",
                (
                    ColumnMapping("id", "order_id", "INDIRECT/JOIN: on id"),
                    ColumnMapping("n", "order_id", "md5(n)"),
                ),
            ),
            ExportEdge(
                "raw.orders",
                "model.shop.orders",
                None,
                (ColumnMapping("id", "order_id", "sum(id)"),),
            ),
            ExportEdge("raw.orders", "pg.orders", "copy", (ColumnMapping("id", "id", None),)),
        ],
    )


def client_event(event: dict) -> RunEvent:  # type: ignore[type-arg]
    """The event rebuilt with the official client's types (which check them)."""

    def facets(dataset: dict) -> dict:  # type: ignore[type-arg]
        out: dict = {}  # type: ignore[type-arg]
        given = dataset.get("facets", {})
        if "schema" in given:
            out["schema"] = schema_dataset.SchemaDatasetFacet(
                fields=[
                    schema_dataset.SchemaDatasetFacetFields(**f) for f in given["schema"]["fields"]
                ]
            )
        if "columnLineage" in given:
            out["columnLineage"] = cl.ColumnLineageDatasetFacet(
                fields={
                    column: cl.Fields(
                        inputFields=[
                            cl.InputField(
                                f["namespace"],
                                f["name"],
                                f["field"],
                                [cl.Transformation(**t) for t in f.get("transformations", [])],
                            )
                            for f in spec["inputFields"]
                        ],
                        transformationDescription=spec.get("transformationDescription"),
                    )
                    for column, spec in given["columnLineage"]["fields"].items()
                }
            )
        return out

    job_facets: dict[str, JobFacet] = {}
    if "facets" in event["job"]:
        job_facets["sql"] = sql_job.SQLJobFacet(query=event["job"]["facets"]["sql"]["query"])
    return RunEvent(
        eventType=RunState(event["eventType"]),
        eventTime=event["eventTime"],
        producer=event["producer"],
        run=Run(runId=event["run"]["runId"]),
        job=Job(namespace=event["job"]["namespace"], name=event["job"]["name"], facets=job_facets),
        inputs=[InputDataset(d["namespace"], d["name"], facets=facets(d)) for d in event["inputs"]],
        outputs=[
            OutputDataset(d["namespace"], d["name"], facets=facets(d)) for d in event["outputs"]
        ],
    )


def test_openlineage_events_fit_the_official_client() -> None:
    exported = events(rich_graph(), AT)
    for event in exported:
        rebuilt = orjson.loads(Serde.to_json(client_event(event)))
        assert rebuilt["job"] == {**event["job"], "facets": rebuilt["job"]["facets"]}
        assert [(d["namespace"], d["name"]) for d in rebuilt["inputs"]] == [
            (d["namespace"], d["name"]) for d in event["inputs"]
        ]


def test_openlineage_names_plain_assets_by_id_and_keeps_datasets() -> None:
    exported = events(rich_graph(), AT)
    assert {e["job"]["name"] for e in exported} == {"raw.orders", "pg.orders", "model.shop.orders"}
    pg = [e for e in exported if e["job"]["name"] == "pg.orders"]
    assert pg[0]["outputs"][0]["namespace"] == "postgres://db:5432"
    assert pg[0]["inputs"] == [
        {
            "namespace": ASSET_NAMESPACE,
            "name": "raw.orders",
            "facets": pg[0]["inputs"][0]["facets"],
        }
    ]
    root = [e for e in exported if e["job"]["name"] == "raw.orders"]
    assert len(root) == 1 and root[0]["inputs"] == []  # its columns travel too
    assert root[0]["outputs"][0]["facets"]["schema"]["fields"] == [
        {"name": "id", "type": "int", "description": "key"}
    ]
    run_ids = [e["run"]["runId"] for e in exported]
    assert len(set(run_ids)) == len(run_ids)
    assert run_ids == [e["run"]["runId"] for e in events(rich_graph(), AT)]  # stable


def test_openlineage_events_plan_back_into_the_same_lineage() -> None:
    source = rich_graph()
    plan = plan_events(parse_events(events(source, AT), 100), 100)
    pg_key = DATASET_MARK + "postgres://db:5432\nshop.public.orders"
    named = {"pg.orders": pg_key}
    edges = {
        (row["source"], row["target"], row["transformation"])
        for rows in plan.edges.values()
        for row in rows
    }
    assert edges == {
        (named.get(e.source, e.source), named.get(e.target, e.target), e.transformation)
        for e in source.edges
    }
    mappings = {
        (r["source"], r["source_column"], r["target"], r["target_column"], r["transformation"])
        for rows in plan.columns.values()
        for r in rows
    }
    assert mappings == {
        (
            named.get(e.source, e.source),
            m.source,
            named.get(e.target, e.target),
            m.target,
            m.transformation,
        )
        for e in source.edges
        for m in e.columns
    }
    assert plan.asset_ids == ["model.shop.orders", "raw.orders"]
    assert {ref.key for ref in plan.datasets} == {pg_key.removeprefix(DATASET_MARK)}
    schemas = {row["id"]: orjson.loads(row["columns_json"]) for row in plan.schemas}
    assert [(c["name"], c["type"]) for c in schemas["model.shop.orders"]] == [("order_id", "int")]
    assert [c["name"] for c in schemas[pg_key]] == ["id", "n"]


def test_assemble_adds_details_in_the_traversals_order() -> None:
    view = LineageView(
        "a",
        "downstream",
        2,
        [
            {
                "id": "a",
                "name": "A",
                "type": "table",
                "platform": None,
                "distance": 0,
                "direction": "root",
            },
            {
                "id": "b",
                "name": "b",
                "type": "view",
                "platform": "pg",
                "distance": 1,
                "direction": "downstream",
            },
        ],
        [{"source": "a", "target": "b", "transformation": None}],
        False,
    )
    assets: list[dict[str, str | None]] = [
        {"id": "b", "namespace": "pg://h", "name": "s.b", "columns_json": '[{"name": "x"}]'},
        {"id": "a", "namespace": None, "name": None, "columns_json": None},
    ]
    mappings: list[dict[str, str | None]] = [
        {
            "source": "a",
            "target": "b",
            "source_column": "z",
            "target_column": "x",
            "transformation": None,
        },
        {
            "source": "a",
            "target": "b",
            "source_column": "y",
            "target_column": "x",
            "transformation": "t",
        },
    ]
    built = assemble(view, assets, mappings)
    assert [n.id for n in built.nodes] == ["a", "b"]
    assert built.nodes[1].dataset == ("pg://h", "s.b") and built.nodes[0].dataset is None
    assert built.nodes[1].columns == (ExportColumn("x"),)
    assert [m.source for m in built.edges[0].columns] == ["y", "z"]
