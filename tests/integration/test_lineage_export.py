"""Exporting a lineage neighbourhood: the OpenLineage export, re-ingested into an
empty graph, gives the same graph back (assets by the same ids, edges with their
transformations, column mappings, columns); DOT, Mermaid and CSV come as files with
their media types; bad parameters are 422 naming them."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import neo4j
import pytest

from tests.conftest import CLEAR_GRAPH, Tokens, client_for
from tests.support.server import LiveServer
from tests.support.tokens import TokenMaker

PG = {"namespace": "postgres://db:5432", "name": "shop.public.orders"}
HOSTILE = 's3://lake/raw/"q"[1]{x}#;-->'
ROOT = "model.shop.stg_orders"


def _ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def _build(client: httpx.Client) -> None:
    """Plain assets, dbt-like ids, an asset holding a Postgres table, a dataset made by
    OpenLineage, a hostile id, column lineage and transformations, three hops deep."""
    _ok(
        client.post(
            "/assets",
            json={
                "id": "warehouse.raw_orders",
                "name": "raw orders",
                "type": "table",
                "columns": [{"name": "id", "type": "int"}, {"name": "email", "type": "text"}],
            },
        ),
        201,
    )
    _ok(
        client.post(
            "/assets", json={"id": "pg.orders", "name": "orders", "type": "table", "dataset": PG}
        ),
        201,
    )
    _ok(
        client.post(
            "/lineage/bulk",
            json=[
                {
                    "source": "warehouse.raw_orders",
                    "target": ROOT,
                    "transformation": "select id, md5(email) as email_hash from raw_orders",
                    "columns": [
                        {"source": "id", "target": "order_id", "transformation": "DIRECT/IDENTITY"},
                        {"source": "email", "target": "email_hash", "transformation": "md5(email)"},
                    ],
                },
                {
                    "source": "pg.orders",
                    "target": ROOT,
                    "columns": [{"source": "id", "target": "order_id"}],
                },
                {
                    "source": ROOT,
                    "target": "model.shop.orders",
                    "transformation": "select * from stg",
                },
                {"source": "model.shop.orders", "target": HOSTILE},
            ],
        )
    )
    event = {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-27T08:00:00Z",
        "producer": "https://example.com/spark",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": "3f1e0e1c-6a39-4d5e-9a53-7f4a1c2b9d10"},
        "job": {"namespace": "spark", "name": "load", "facets": {"sql": {"query": "copy"}}},
        "inputs": [
            {
                "namespace": "kafka://broker:9092",
                "name": "orders.events",
                "facets": {"schema": {"fields": [{"name": "id", "type": "string"}]}},
            }
        ],
        "outputs": [
            {
                **PG,
                "facets": {
                    "columnLineage": {
                        "fields": {
                            "id": {
                                "inputFields": [
                                    {
                                        "namespace": "kafka://broker:9092",
                                        "name": "orders.events",
                                        "field": "id",
                                    }
                                ]
                            }
                        }
                    }
                },
            }
        ],
    }
    _ok(client.post("/lineage/openlineage", json=event))


def _graph(client: httpx.Client) -> dict[str, Any]:
    """What must survive the round trip: nodes, edges, column mappings, columns."""
    walk = _ok(client.get(f"/lineage/{quote(ROOT, safe='')}", params={"depth": 5}))
    edges = _ok(client.get("/lineage/edges", params={"limit": 500}))["items"]
    assets = {n["id"]: _ok(client.get(f"/assets/{quote(n['id'], safe='')}")) for n in walk["nodes"]}
    return {
        "nodes": sorted((n["id"], n["distance"], n["direction"]) for n in walk["nodes"]),
        "edges": sorted((e["source"], e["target"], e["transformation"]) for e in walk["edges"]),
        "mappings": sorted(
            (e["source"], c["source"], e["target"], c["target"], c["transformation"])
            for e in edges
            for c in e["columns"]
        ),
        "columns": {
            i: [(c["name"], c.get("type")) for c in a["columns"]] for i, a in assets.items()
        },
        "datasets": {i: a.get("dataset") for i, a in assets.items() if a.get("dataset")},
    }


def test_the_openlineage_export_reingested_gives_the_same_graph(
    writer: httpx.Client, live: LiveServer, driver: neo4j.Driver, token_maker: TokenMaker
) -> None:
    _build(writer)
    before = _graph(writer)
    assert len(before["nodes"]) == 6 and len(before["mappings"]) == 4  # the graph is rich
    response = writer.get(
        f"/lineage/{quote(ROOT, safe='')}/export", params={"format": "openlineage", "depth": 5}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.headers["lineage-truncated"] == "false"
    events = response.json()
    assert {e["eventType"] for e in events} == {"COMPLETE"}

    driver.execute_query(CLEAR_GRAPH)
    fresh = token_maker.make(write=["write"])
    with client_for(live, fresh["write"]) as again:
        assert again.get(f"/lineage/{quote(ROOT, safe='')}").status_code == 404
        summary = _ok(again.post("/lineage/openlineage", json=events))
        assert summary["edges"]["created"] == len(before["edges"])
        after = _graph(again)
        assert after == before

        # Ingested twice, the same export changes nothing.
        repeat = _ok(again.post("/lineage/openlineage", json=events))
        assert repeat["edges"]["created"] == 0 and repeat["retired"]["edges"] == 0
        assert _graph(again) == before


def test_an_export_reingested_into_the_live_graph_names_the_same_assets(
    writer: httpx.Client,
) -> None:
    _build(writer)
    before = _graph(writer)
    events = writer.get(
        f"/lineage/{quote(ROOT, safe='')}/export", params={"format": "openlineage"}
    ).json()
    summary = _ok(writer.post("/lineage/openlineage", json=events))
    assert summary["assets"]["created"] == 0 and summary["edges"]["created"] == 0
    assert _graph(writer)["edges"] == before["edges"]


@pytest.mark.parametrize(
    ("fmt", "media_type", "extension"),
    [
        ("dot", "text/vnd.graphviz; charset=utf-8", "dot"),
        ("mermaid", "text/vnd.mermaid; charset=utf-8", "mmd"),
        ("csv", "text/csv; charset=utf-8; header=present", "csv"),
    ],
)
def test_text_formats_come_as_files_holding_every_asset(
    writer: httpx.Client, fmt: str, media_type: str, extension: str
) -> None:
    _build(writer)
    response = writer.get(f"/lineage/{quote(ROOT, safe='')}/export", params={"format": fmt})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media_type
    assert response.headers["content-disposition"].startswith(
        f'attachment; filename="lineage-model.shop.stg_orders.{extension}"'
    )
    if fmt == "dot":
        assert '"s3://lake/raw/\\"q\\"[1]{x}#;-->"' in response.text
    if fmt == "mermaid":
        assert "s3://lake/raw/#quot;q#quot;[1]{x}#35;;--#gt;" in response.text
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(response.text)))
        assert {r[1] for r in rows if r[0] == "node"} >= {ROOT, HOSTILE, "pg.orders"}
        to_hostile = next(r for r in rows if r[0] == "edge" and r[2] == HOSTILE)
        assert to_hostile[:4] == ["edge", "model.shop.orders", HOSTILE, ""]


def test_an_id_ending_in_export_is_an_asset_not_the_export(writer: httpx.Client) -> None:
    _ok(writer.post("/lineage", json={"source": "a/export", "target": "b"}), 201)
    walk = _ok(writer.get(f"/lineage/{quote('a/export', safe='')}"))
    assert walk["root"] == "a/export"
    exported = writer.get(f"/lineage/{quote('a/export', safe='')}/export", params={"format": "csv"})
    assert exported.status_code == 200
    assert exported.headers["content-disposition"].startswith(
        'attachment; filename="lineage-a_export.csv"'
    )


def test_a_neighbourhood_past_the_limit_is_cut_and_says_so(writer: httpx.Client) -> None:
    _ok(writer.post("/lineage/bulk", json=[{"source": "r", "target": f"t{i}"} for i in range(5)]))
    response = writer.get("/lineage/r/export", params={"format": "dot", "limit": 3})
    assert response.status_code == 200
    assert response.headers["lineage-truncated"] == "true"
    assert response.text.count("[label=") == 3
    assert "// truncated" in response.text


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "format"),
        ({"format": "png"}, "format"),
        ({"format": "csv", "limit": 10_001}, "limit"),
        ({"format": "csv", "limit": 0}, "limit"),
        ({"format": "csv", "depth": 51}, "depth"),
        ({"format": "csv", "direction": "sideways"}, "direction"),
        ({"format": "csv", "as_of": "yesterday"}, "as_of"),
    ],
)
def test_bad_parameters_are_422_naming_them(
    writer: httpx.Client, params: dict[str, Any], field: str
) -> None:
    _ok(writer.post("/lineage", json={"source": "r", "target": "s"}), 201)
    problem = _ok(writer.get("/lineage/r/export", params=params), 422)
    assert problem["errors"][0]["loc"] == ["query", field]


def test_an_unknown_root_is_404(reader: httpx.Client) -> None:
    problem = _ok(reader.get("/lineage/nobody/export", params={"format": "csv"}), 404)
    assert problem["code"] == "asset_not_found"


def test_as_of_exports_the_graph_of_that_instant_without_columns(writer: httpx.Client) -> None:
    _build(writer)
    at = datetime.now(UTC).isoformat()
    _ok(writer.post("/lineage", json={"source": ROOT, "target": "later"}), 201)
    response = writer.get(
        f"/lineage/{quote(ROOT, safe='')}/export", params={"format": "csv", "as_of": at}
    )
    assert response.status_code == 200, response.text
    rows = list(csv.reader(io.StringIO(response.text)))
    ids = {r[1] for r in rows if r[0] == "node"}
    assert "later" not in ids and "pg.orders" in ids
    assert not [r for r in rows if r[0] == "column"]


def _cli(live: LiveServer, token: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GOVERNANCE_"))}
    return subprocess.run(
        [sys.executable, "-m", "service", "lineage", "export", *args,
         "--url", live.url, "--token", token],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip


def test_the_cli_writes_the_same_file_as_the_api(
    writer: httpx.Client, live: LiveServer, tokens: Tokens, tmp_path: Path
) -> None:
    _build(writer)
    target = tmp_path / "lineage.dot"
    done = _cli(live, tokens.read, ROOT, "--format", "dot", "--depth", "2", "-o", str(target))
    assert done.returncode == 0, done.stderr
    api = writer.get(
        f"/lineage/{quote(ROOT, safe='')}/export", params={"format": "dot", "depth": 2}
    )
    # Equal but for the first line, which says when each was exported.
    assert target.read_text().split("\n", 1)[1] == api.text.split("\n", 1)[1]

    cut = _cli(live, tokens.read, ROOT, "--format", "csv", "--limit", "2")
    assert cut.returncode == 0 and cut.stdout.startswith("kind,source,target")
    assert "is cut" in cut.stderr


def test_the_cli_says_what_the_service_refused(live: LiveServer, tokens: Tokens) -> None:
    done = _cli(live, tokens.read, "nobody", "--format", "mermaid")
    assert done.returncode == 1
    assert "nobody: 404" in done.stderr and done.stdout == ""
