"""Lineage through time and change impact against a running service (GOVERNANCE_URL,
GOVERNANCE_TOKEN with the admin scope), as `clients/harness.py python` provides.
Every test works under its own id prefix; the moments it reads the graph at are the
service's own (a version's ``at``), never the test machine's clock."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from governance_client import AsyncClient, Client, NotFoundError, ValidationError

MANIFEST = (
    Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "dbt_quality" / "manifest.json"
)
REVENUE = "model.quality_shop.customer_revenue"

pytestmark = pytest.mark.live


def ids(graph: Any) -> set[str]:
    return {node["id"] for node in graph["nodes"]}


def pairs(edges: Any) -> set[tuple[str, str]]:
    return {(edge["source"], edge["target"]) for edge in edges}


def newest_moment(client: Client, asset_id: str) -> str:
    """When the asset's newest version was written, by the service's clock."""
    return client.assets.list_history(asset_id, limit=1)["items"][0]["at"]


def test_an_origin_s_replaced_edges_stay_readable_as_they_stood(
    client: Client, prefix: str
) -> None:
    a, b, c = f"{prefix}.a", f"{prefix}.b", f"{prefix}.c"
    client.assets.create(a, name="A", type="table", columns=[{"name": "x", "type": "int"}])
    client.assets.create(b, name="B", type="table", columns=[{"name": "y", "type": "int"}])
    client.assets.create(c, name="C", type="table")
    origin = f"sync:{prefix}"
    mapped = {"source": a, "target": b, "columns": [{"source": "x", "target": "y"}]}
    assert client.lineage.bulk([mapped], origin=origin)["created"] == 1
    client.assets.patch(b, {"description": "fed by a"})
    fed_by_a = newest_moment(client, b)

    replaced = client.lineage.bulk([(c, b)], origin=origin, replace=True)
    assert replaced["retired"] == {
        "edges": 1,
        "edges_removed": 1,
        "column_mappings": 1,
        "column_mappings_removed": 1,
    }
    assert ids(client.lineage.upstream(b)) == {b, c}
    assert ids(client.lineage.upstream(b, as_of=fed_by_a)) == {a, b}
    assert ids(client.lineage.get(a, as_of=fed_by_a, direction="downstream")) == {a, b}
    assert ids(client.lineage.downstream(a, as_of=fed_by_a)) == {a, b}
    then = client.lineage.column_upstream(b, "y", as_of=fed_by_a)
    assert {(n["asset"], n["column"]) for n in then["nodes"]} == {(a, "x"), (b, "y")}
    assert [n["asset"] for n in client.lineage.column_upstream(b, "y")["nodes"]] == [b]
    later = client.lineage.column_downstream(a, "x", as_of=fed_by_a)
    assert {(n["asset"], n["column"]) for n in later["nodes"]} == {(a, "x"), (b, "y")}

    change = client.lineage.diff(b, fed_by_a, direction="upstream")
    assert pairs(change["removed"]["edges"]) == {(a, b)}
    assert pairs(change["added"]["edges"]) == {(c, b)}
    assert {n["id"] for n in change["removed"]["nodes"]} == {a}
    assert {n["id"] for n in change["added"]["nodes"]} == {c}
    assert change["changed"]["edges"] == []


def test_a_root_that_did_not_exist_then_is_not_found(client: Client, prefix: str) -> None:
    asset_id = f"{prefix}.late"
    client.assets.create(asset_id, name="Late", type="table")
    born = datetime.fromisoformat(newest_moment(client, asset_id))
    with pytest.raises(NotFoundError) as missing:
        client.lineage.upstream(asset_id, as_of=born - timedelta(seconds=1))
    assert missing.value.code == "asset_not_found"
    assert client.lineage.upstream(asset_id, as_of=born)["root"] == asset_id


def test_an_as_of_that_is_not_an_instant_is_a_validation_error(client: Client, prefix: str) -> None:
    asset_id = f"{prefix}.x"
    client.assets.create(asset_id, name="X", type="table")
    with pytest.raises(ValidationError) as refused:
        client.lineage.get(asset_id, as_of="last tuesday")
    assert refused.value.errors[0]["loc"] == ["query", "as_of"]


def test_history_lists_each_change_newest_first(client: Client, prefix: str) -> None:
    asset_id = f"{prefix}.orders"
    client.assets.create(
        asset_id, name="Orders", type="table", columns=[{"name": "id", "type": "int"}]
    )
    client.assets.patch(asset_id, {"description": "one row per order"})
    client.assets.put(
        asset_id, name="Orders", type="table", columns=[{"name": "id", "type": "bigint"}]
    )
    versions = list(client.assets.iter_history(asset_id, limit=1))
    assert [v["version"] for v in versions] == [3, 2, 1]
    assert all(v["actor"].startswith(("token:", "user:")) for v in versions)
    assert not any(v["deleted"] for v in versions)
    newest = {(c["field"], c["column"], c["change"]) for c in versions[0]["changes"]}
    assert ("columns", "id", "retyped") in newest
    described = versions[1]["changes"]
    assert [(c["field"], c["from"], c["to"]) for c in described] == [
        ("description", None, "one row per order")
    ]
    with pytest.raises(NotFoundError):
        client.assets.list_history(f"{prefix}.never")


def without(manifest: dict[str, Any], model: str) -> dict[str, Any]:
    """The manifest with ``model`` and the tests of it removed."""
    nodes = {
        key: node
        for key, node in manifest["nodes"].items()
        if key != model and model not in node.get("depends_on", {}).get("nodes", [])
    }
    return {**manifest, "nodes": nodes}


def test_a_manifest_check_names_what_breaks_and_who_reads_it(client: Client, prefix: str) -> None:
    project = prefix
    client.lineage.upload_manifest(MANIFEST, project=project)
    board = f"{prefix}.revenue_board"
    client.assets.create(board, name="Revenue board", type="dashboard", owners=["bi@example.com"])
    client.lineage.add_edge(REVENUE, board)

    same = client.lineage.check_manifest(MANIFEST, project=project)
    assert (same["project"], same["breaking"], same["changes"]) == (project, False, [])

    candidate = without(json.loads(MANIFEST.read_bytes()), REVENUE)
    report = client.lineage.check_manifest(json.dumps(candidate).encode(), project=project)
    assert report["breaking"] is True
    removed = [c for c in report["changes"] if c["kind"] == "model_removed"]
    assert [(c["asset"], c["breaking"]) for c in removed] == [(REVENUE, True)]
    hit = next(i for i in report["impacted"] if i["asset"] == board)
    assert (hit["owners"], hit["via"][0], hit["via"][-1]) == (["bi@example.com"], REVENUE, board)
    assert hit["distance"] == 1
    assert client.assets.get(REVENUE)["id"] == REVENUE, "a check writes nothing"


def test_checking_a_project_never_uploaded_is_not_found(client: Client, prefix: str) -> None:
    with pytest.raises(NotFoundError) as unknown:
        client.lineage.check_manifest(MANIFEST, project=f"{prefix}-never-uploaded")
    assert unknown.value.code == "unknown_project"


def test_a_replacement_of_nothing_retires_the_origin_s_edges(client: Client, prefix: str) -> None:
    a, b = f"{prefix}.a", f"{prefix}.b"
    origin = f"sync:{prefix}"
    client.lineage.push_bulk([(a, b)], origin=origin)
    retired = client.lineage.push_bulk([], origin=origin, replace=True)["retired"]
    assert retired is not None
    assert (retired["edges"], retired["edges_removed"]) == (1, 1)
    assert list(client.lineage.iter_edges(source=a)) == []


@pytest.mark.anyio
async def test_the_async_client_reads_through_time(url: str, prefix: str) -> None:
    a, b = f"{prefix}.a", f"{prefix}.b"
    async with AsyncClient() as client:
        for asset_id in (a, b):
            await client.assets.create(asset_id, name=asset_id, type="table")
        await client.lineage.add_edge(a, b)
        await client.assets.patch(b, {"description": "fed by a"})
        moment = (await client.assets.list_history(b, limit=1))["items"][0]["at"]
        await client.lineage.delete_edge(a, b)
        graph = await client.lineage.upstream(b, as_of=moment)
        assert ids(graph) == {a, b}
        change = await client.lineage.diff(b, moment)
        assert pairs(change["removed"]["edges"]) == {(a, b)}
