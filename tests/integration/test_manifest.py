"""POST /lineage/manifest on real manifests written by dbt (our own project, built by a
dbt release of every manifest schema from v4 to v12): counts taken from each manifest's
own `nodes`/`parent_map` (not from the code under test), prune, idempotence, bad input."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest

from service.store.spool import SPOOL_BYTES
from tests.support.dbt_fixtures import (
    LINEAGE_TYPES,
    NEWEST,
    SCHEMAS,
    json_bytes,
    lineage_pairs,
    manifest,
    manifest_path,
    prefix,
    public,
    public_manifests,
)


def expected(document: dict[str, Any]) -> dict[str, int]:
    """Independent of the service: what the manifest holds. A test that depends on no
    node at all (it checks literal values) has no asset to become a rule of."""
    nodes = document["nodes"]
    kinds = ("model", "seed", "snapshot", "analysis")
    enabled = [n for n in nodes.values() if n.get("config", {}).get("enabled", True)]
    assets = sum(1 for n in enabled if n["resource_type"] in kinds)
    assets += len(document.get("sources", {})) + len(document.get("exposures", {}))
    tests = [n for n in enabled if n["resource_type"] == "test"]
    attachable = sum(1 for n in tests if n["depends_on"]["nodes"])
    return {"assets": assets, "edges": len(lineage_pairs(document)), "tests": attachable}


def upload(client: httpx.Client, document: Any, **params: Any) -> httpx.Response:
    return client.post(
        "/lineage/manifest",
        params=params,
        content=json.dumps(document),
        headers={"content-type": "application/json"},
        timeout=300,
    )


PUBLIC_JAFFLE = [
    pytest.param(public(name), marks=public_manifests)
    for name in (
        "gen_jaffle_shop_v4_dbt1.0.9_duckdb.json",
        "gen_jaffle_shop_v7_dbt1.3.8_duckdb.json",
        "gen_jaffle_shop_v12_dbt1.8.10_duckdb.json",
        "gen_jaffle_shop_new_v12_dbt1.11.16_duckdb.json",
    )
]


@pytest.mark.parametrize(
    "path", [*map(manifest_path, SCHEMAS), *PUBLIC_JAFFLE], ids=lambda p: p.name
)
def test_real_manifests_ingest_with_the_counts_they_hold(writer: httpx.Client, path: Any) -> None:
    document = json.loads(json_bytes(path))
    want = expected(document)
    response = upload(writer, document)
    assert response.status_code == 200, response.text
    summary = response.json()
    assert summary["assets"] == {"created": want["assets"], "updated": 0, "merged": 0}
    assert summary["edges"]["created"] >= want["edges"] and summary["edges"]["removed"] == 0
    assert summary["quality_rules"]["created"] == want["tests"]
    assert summary["dbt_version"] == document["metadata"]["dbt_version"]
    dbt_edges = writer.get(
        "/lineage/edges", params={"origin": f"dbt:{summary['project']}", "limit": 500}
    ).json()
    pairs = {
        (e["source"], e["target"])
        for e in dbt_edges["items"]
        if prefix(e["source"]) in LINEAGE_TYPES and prefix(e["target"]) in LINEAGE_TYPES
    }
    assert len(pairs) == want["edges"]


def _post_gzipped(client: httpx.Client, raw: bytes) -> httpx.Response:
    return client.post(
        "/lineage/manifest",
        content=raw,
        timeout=600,
        headers={"content-type": "application/json", "content-encoding": "gzip"},
    )


def test_a_gzipped_manifest_ingests(writer: httpx.Client) -> None:
    raw = manifest_path(NEWEST).read_bytes()
    assert raw[:2] == b"\x1f\x8b"
    want = expected(manifest(NEWEST))
    response = _post_gzipped(writer, raw)
    assert response.status_code == 200, response.text
    summary = response.json()
    assert summary["assets"]["created"] == want["assets"]
    assert summary["edges"]["created"] >= want["edges"]
    assert summary["quality_rules"]["created"] == want["tests"]


def test_a_manifest_past_the_in_memory_spool_ingests_raw_gzipped_and_multipart(
    writer: httpx.Client,
) -> None:
    """Past SPOOL_BYTES a body goes to a temporary file; it reads the same however sent."""
    document = manifest(NEWEST)
    document["macros"] = {f"macro.x.m{i}": {"macro_sql": "x" * 1000} for i in range(6000)}
    raw = json.dumps(document).encode()
    assert len(raw) > SPOOL_BYTES
    plain = writer.post(
        "/lineage/manifest",
        content=raw,
        headers={"content-type": "application/json"},
        timeout=300,
    )
    assert plain.status_code == 200, plain.text
    assert plain.json()["assets"]["created"] == expected(document)["assets"]
    unchanged = {"created": 0, "updated": 0, "merged": 0}
    assert _post_gzipped(writer, gzip.compress(raw)).json()["assets"] == unchanged
    part = writer.post(
        "/lineage/manifest", files={"file": ("manifest.json", raw, "application/json")}
    )
    assert part.status_code == 200, part.text
    assert part.json()["assets"] == unchanged


@public_manifests
def test_the_large_gzipped_manifest_ingests(writer: httpx.Client) -> None:
    raw = public("gen_mattermost_analytics_v12_dbt1.11.16_snowflake.json.gz").read_bytes()
    want = expected(json.loads(gzip.decompress(raw)))
    response = _post_gzipped(writer, raw)
    assert response.status_code == 200, response.text
    summary = response.json()
    assert summary["assets"]["created"] == want["assets"]
    assert summary["edges"]["created"] >= want["edges"]
    assert summary["quality_rules"]["created"] <= want["tests"]


def test_the_same_manifest_twice_changes_nothing(writer: httpx.Client) -> None:
    document = manifest(NEWEST)
    first = upload(writer, document).json()
    second = upload(writer, document).json()
    assert second["assets"] == {"created": 0, "updated": 0, "merged": 0}
    assert second["edges"]["created"] == 0 and second["edges"]["removed"] == 0
    assert second["edges"]["existing"] == first["edges"]["created"]
    assert second["quality_rules"] == {"created": 0, "updated": 0, "removed": 0}
    events = writer.get("/events", params={"types": "lineage.manifest.ingested"}).json()["items"]
    assert len(events) == 1 and events[0]["data"] == first


def test_lineage_from_a_manifest_traverses(writer: httpx.Client) -> None:
    upload(writer, manifest(NEWEST))
    graph = writer.get("/lineage/model.corner_shop.orders/upstream", params={"depth": 5}).json()
    ids = {n["id"] for n in graph["nodes"]}
    assert {
        "seed.corner_shop.raw_orders",
        "seed.corner_shop.raw_payments",
        "model.corner_shop.stg_orders",
        "source.corner_shop.ext.stores",
    } <= ids
    orders = writer.get("/assets/model.corner_shop.orders").json()
    assert orders["type"] == "model" and orders["platform"] == "duckdb"
    assert orders["properties"]["dbt_project"] == "corner_shop"
    assert any(c["name"] == "order_id" for c in orders["columns"])
    edge = writer.get("/lineage/edges", params={"target": "model.corner_shop.orders"}).json()[
        "items"
    ][0]
    assert "select" in (edge["transformation"] or "").lower()


def test_prune_removes_what_the_project_dropped_but_not_what_others_assert(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    document = manifest(NEWEST)
    upload(writer, document)
    writer.post(
        "/lineage",
        json={"source": "model.corner_shop.stg_orders", "target": "model.corner_shop.orders"},
    )
    changed = copy.deepcopy(document)
    orders = changed["nodes"]["model.corner_shop.orders"]
    orders["depends_on"]["nodes"] = [
        n
        for n in orders["depends_on"]["nodes"]
        if n not in ("model.corner_shop.stg_orders", "model.corner_shop.stg_payments")
    ]
    test_id = next(k for k in changed["nodes"] if k.startswith("test.corner_shop.unique_orders_"))
    del changed["nodes"][test_id]
    summary = upload(writer, changed).json()
    assert summary["edges"]["removed"] == 1  # stg_payments -> orders; stg_orders -> orders lives on
    assert summary["quality_rules"]["removed"] == 1
    deleted = writer.get("/events", params={"types": "lineage.edge.deleted"}).json()["items"]
    assert [(e["data"]["source"], e["data"]["origins"]) for e in deleted] == [
        ("model.corner_shop.stg_payments", ["dbt:corner_shop"])
    ]
    kept = writer.get(
        "/lineage/edges",
        params={"source": "model.corner_shop.stg_orders", "target": "model.corner_shop.orders"},
    ).json()["items"]
    assert kept and kept[0]["origins"] == ["api"]
    gone = writer.get(
        "/lineage/edges",
        params={"source": "model.corner_shop.stg_payments", "target": "model.corner_shop.orders"},
    ).json()["items"]
    assert gone == []
    no_prune = upload(
        writer,
        {
            **changed,
            "nodes": {k: v for k, v in changed["nodes"].items() if not k.startswith("test.")},
        },
        prune="false",
    ).json()
    assert no_prune["quality_rules"]["removed"] == 0


def test_multipart_upload_and_project_override(writer: httpx.Client) -> None:
    raw = json_bytes(manifest_path("v7"))
    response = writer.post(
        "/lineage/manifest",
        params={"project": "shop"},
        files={"file": ("manifest.json", raw, "application/json")},
    )
    assert response.status_code == 200, response.text
    assert response.json()["project"] == "shop"
    assert writer.get("/lineage/edges", params={"origin": "dbt:shop"}).json()["items"]


@pytest.mark.parametrize(
    ("body", "loc_start"),
    [
        (b"this is not json", ["body"]),
        (b'{"metadata": {}}', ["body"]),
        (b'{"nodes": []}', ["body", "nodes"]),
        (b"[1, 2, 3]", ["body"]),
    ],
)
def test_bad_manifests_are_422_and_write_nothing(
    writer: httpx.Client, driver: neo4j.Driver, body: bytes, loc_start: list[Any]
) -> None:
    response = writer.post(
        "/lineage/manifest", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_manifest"
    assert response.json()["errors"][0]["loc"][: len(loc_start)] == loc_start
    assert driver.execute_query("MATCH (a:Asset) RETURN count(a) AS n").records[0]["n"] == 0


def test_truncated_and_deeply_wrong_manifests_write_nothing(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    raw = json_bytes(manifest_path(NEWEST))
    truncated = writer.post(
        "/lineage/manifest",
        content=raw[: len(raw) // 2],
        headers={"content-type": "application/json"},
    )
    assert truncated.status_code == 422
    broken = manifest(NEWEST)
    broken["nodes"]["model.corner_shop.orders"]["depends_on"]["nodes"] = "not a list"
    response = upload(writer, broken)
    assert response.status_code == 422
    assert "model.corner_shop.orders" in response.json()["errors"][0]["loc"]
    bad_gzip = writer.post(
        "/lineage/manifest",
        content=gzip.compress(raw)[:500],
        headers={"content-type": "application/json"},
    )
    assert bad_gzip.status_code == 422
    assert driver.execute_query("MATCH (a:Asset) RETURN count(a) AS n").records[0]["n"] == 0


def test_a_gzip_bomb_is_refused(writer: httpx.Client) -> None:
    bomb = gzip.compress(b"[" + b" " * (300 * 1024 * 1024) + b"]", compresslevel=9)
    assert len(bomb) < 1024 * 1024
    response = writer.post(
        "/lineage/manifest",
        content=bomb,
        headers={"content-type": "application/json", "content-encoding": "gzip"},
    )
    assert response.status_code == 413


def test_other_media_types_are_415_and_reads_need_write_scope(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    assert (
        writer.post(
            "/lineage/manifest", content=b"x", headers={"content-type": "text/plain"}
        ).status_code
        == 415
    )
    assert reader.post("/lineage/manifest", json={"nodes": {}}).status_code == 403
    missing = writer.post("/lineage/manifest", files={"other": ("m.json", b"{}")})
    assert missing.status_code == 422 and missing.json()["errors"][0]["loc"] == ["body", "file"]


def test_dbt_tests_become_quality_rules_on_their_asset_and_column(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    document = manifest(NEWEST)
    upload(writer, document)
    rules = reader.get(
        "/quality/rules", params={"asset_id": "model.corner_shop.orders", "limit": 100}
    ).json()["items"]
    by_type = {r["type"] for r in rules}
    assert {"not_null", "unique", "accepted_values", "relationships"} <= by_type
    status = next(r for r in rules if r["type"] == "accepted_values")
    assert status["column"] == "status" and "placed" in status["params"]["values"]
    assert status["origin"] == "dbt:corner_shop" and status["status"] == "unknown"
    assert reader.get(f"/quality/rules/{status['id']}").json() == status
    assert reader.get("/quality/rules/test.nope").status_code == 404
    assert reader.get("/quality/rules", params={"status": "weird"}).status_code == 422
    everything = reader.get("/quality/rules", params={"limit": 500}).json()["items"]
    assert len(everything) == expected(document)["tests"]


def test_a_test_moved_to_another_model_moves_its_rule(
    writer: httpx.Client, reader: httpx.Client, driver: neo4j.Driver
) -> None:
    """Re-pointing a rule deletes its old CHECKS edge and makes one new one; a rule
    whose model did not change keeps its single edge (no duplicate on re-upload)."""
    document = manifest(NEWEST)
    upload(writer, document)
    moved = copy.deepcopy(document)
    test_id, test = next(
        (k, v)
        for k, v in moved["nodes"].items()
        if k.startswith("test.corner_shop.not_null_orders_")
    )
    test["attached_node"] = "model.corner_shop.customers"
    test["depends_on"]["nodes"] = ["model.corner_shop.customers"]
    summary = upload(writer, moved).json()
    assert summary["quality_rules"]["updated"] == 1 and summary["quality_rules"]["created"] == 0

    assert reader.get(f"/quality/rules/{test_id}").json()["asset_id"] == (
        "model.corner_shop.customers"
    )
    customers = reader.get(
        "/quality/rules", params={"asset_id": "model.corner_shop.customers", "limit": 100}
    ).json()["items"]
    orders = reader.get(
        "/quality/rules", params={"asset_id": "model.corner_shop.orders", "limit": 100}
    ).json()["items"]
    assert test_id in {r["id"] for r in customers} and test_id not in {r["id"] for r in orders}
    edges = driver.execute_query(
        "MATCH (r:QualityRule) OPTIONAL MATCH (r)-[c:CHECKS]->(a) "
        "RETURN r.id AS id, collect(a.id) AS assets"
    ).records
    assert {e["id"]: e["assets"] for e in edges}[test_id] == ["model.corner_shop.customers"]
    assert all(len(e["assets"]) == 1 for e in edges), [e for e in edges if len(e["assets"]) != 1]


def test_the_cli_uploads_a_manifest(
    neo4j_target: object, live: object, tokens: object, tmp_path: Path
) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "GOVERNANCE_URL": live.url, "GOVERNANCE_TOKEN": tokens.write}  # type: ignore[attr-defined]
    path = tmp_path / "manifest.json"  # as dbt leaves it in target/: the CLI compresses it
    path.write_bytes(json_bytes(manifest_path(NEWEST)))
    result = subprocess.run(
        [sys.executable, "-m", "service", "ingest", "manifest", str(path), "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["assets"]["created"] == expected(manifest(NEWEST))["assets"]
    gzipped = manifest_path(NEWEST)  # already compressed: sent as it is
    bad = subprocess.run(
        [sys.executable, "-m", "service", "ingest", "manifest", str(gzipped), "--token", "dgs_x"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 1 and bad.stdout == ""
    assert "401" in bad.stderr and "Traceback" not in bad.stderr


def test_the_summary_reports_column_lineage_from_compiled_sql(writer: httpx.Client) -> None:
    summary = upload(writer, manifest("v7")).json()
    # the 9 nodes and 46 column mappings traced by hand in tests/unit/test_column_sql.py
    assert summary["column_lineage"] == {
        "nodes": 9,
        "edges": {"created": 46, "existing": 0, "removed": 0},
        "skipped": 0,
        "unresolved_columns": 0,
        "warnings": [],
    }
