"""One set of rules for asset ids, wherever an id comes from: POST, PUT's path, lineage
edges and OpenLineage datasets. Ids are kept in Unicode NFC, so two spellings of one
name are one asset; invisible characters that make look-alike ids are refused."""

from __future__ import annotations

import uuid
from urllib.parse import quote

import httpx
import pytest

NFC = "caf\u00e9.orders"  # é as one code point
NFD = "cafe\u0301.orders"  # e + combining acute accent
REFUSED = {
    "control character": "raw\x07orders",
    "space": "raw orders",
    "line separator": "raw\u2028orders",
    "zero-width space": "raw\u200borders",
    "zero-width joiner": "raw\u200dorders",
    "bidi override": "raw\u202eorders",
    "bidi isolate": "raw\u2066orders",
    "byte order mark": "\ufeffraw.orders",
    "too long": "x" * 600,
}


def asset(asset_id: str) -> dict[str, str]:
    return {"id": asset_id, "name": "n", "type": "table"}


def count_assets(client: httpx.Client) -> int:
    return len(client.get("/assets", params={"limit": 500}).json()["items"])


@pytest.mark.parametrize("why", sorted(REFUSED))
def test_put_applies_the_id_rules_to_its_path(writer: httpx.Client, why: str) -> None:
    bad = REFUSED[why]
    answer = writer.put(f"/assets/{quote(bad, safe='')}", json={"name": "n", "type": "table"})
    assert answer.status_code == 422, why
    assert answer.json()["errors"][0]["loc"] == ["path", "asset_id"]
    assert count_assets(writer) == 0


@pytest.mark.parametrize("why", sorted(REFUSED))
def test_post_and_lineage_refuse_the_same_ids(writer: httpx.Client, why: str) -> None:
    bad = REFUSED[why]
    assert writer.post("/assets", json=asset(bad)).status_code == 422
    assert writer.post("/lineage", json={"source": bad, "target": "ok.target"}).status_code == 422
    bulk = writer.post("/lineage/bulk", json=[{"source": "ok.a", "target": bad}])
    assert bulk.status_code == 422
    assert bulk.json()["errors"][0]["loc"][:2] == ["body", 0]
    assert count_assets(writer) == 0


def test_two_spellings_of_one_name_are_one_asset(writer: httpx.Client) -> None:
    assert NFC != NFD
    made = writer.post("/assets", json=asset(NFD))
    assert made.status_code == 201
    assert made.json()["id"] == NFC
    assert writer.post("/assets", json=asset(NFC)).status_code == 409
    for spelling in (NFC, NFD):
        found = writer.get(f"/assets/{quote(spelling, safe='')}")
        assert found.status_code == 200 and found.json()["id"] == NFC
    edge = writer.post("/lineage", json={"source": NFD, "target": "mart.revenue"})
    assert edge.status_code == 201
    assert edge.json()["source"] == NFC
    assert count_assets(writer) == 2  # the asset and the placeholder target, no twin
    put = writer.put(
        f"/assets/{quote(NFD, safe='')}", json={"id": NFC, "name": "m", "type": "table"}
    )
    assert put.status_code == 200


def test_openlineage_datasets_follow_the_same_rules(writer: httpx.Client) -> None:
    def event(output: str) -> dict[str, object]:
        return {
            "eventType": "COMPLETE",
            "eventTime": "2026-11-24T10:00:00Z",
            "producer": "https://example.com/producer",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
            "run": {"runId": str(uuid.uuid4())},
            "job": {"namespace": "airflow", "name": "etl"},
            "inputs": [{"namespace": "pg", "name": "public.raw"}],
            "outputs": [{"namespace": "pg", "name": output}],
        }

    refused = writer.post("/lineage/openlineage", json=event("public.ra\u200bw2"))
    assert refused.status_code == 422
    assert count_assets(writer) == 0
    accepted = writer.post("/lineage/openlineage", json=event("public.cafe\u0301"))
    assert accepted.status_code in (200, 201), accepted.text
    ids = {a["id"] for a in writer.get("/assets", params={"limit": 500}).json()["items"]}
    assert "pg/public.caf\u00e9" in ids
    assert "pg/public.cafe\u0301" not in ids
