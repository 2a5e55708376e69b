"""Lineage through time and change impact on a scripted transport: ``as_of`` on
every traversal, the diff, an asset's history, the manifest impact check and
edge sets owned by their origin. No network."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from scripted import Script, ok, problem

from governance_client import AsyncClient, Client, ImpactReport, LineageDiff, NotFoundError

GRAPH = {
    "root": "mart.revenue",
    "direction": "upstream",
    "depth": 5,
    "nodes": [],
    "edges": [],
    "truncated": False,
}
DIFF: LineageDiff = {
    "root": "a",
    "direction": "both",
    "depth": 5,
    "from": "2026-11-01T00:00:00.000Z",
    "to": "2026-11-27T06:00:00.000Z",
    "added": {"nodes": [], "edges": [{"source": "a", "target": "b", "transformation": None}]},
    "removed": {"nodes": [], "edges": []},
    "changed": {
        "edges": [
            {
                "source": "b",
                "target": "c",
                "transformation": "select 2",
                "previous_transformation": "select 1",
            }
        ]
    },
    "truncated": False,
}
REPORT: ImpactReport = {
    "project": "shop",
    "changes": [
        {
            "kind": "column_removed",
            "asset": "model.shop.orders",
            "column": "id",
            "from": None,
            "to": None,
            "breaking": True,
        }
    ],
    "impacted": [
        {
            "asset": "dash.revenue",
            "column": None,
            "distance": 1,
            "owners": ["bi@shop"],
            "via": ["model.shop.orders", "dash.revenue"],
        }
    ],
    "breaking": True,
    "depth": 50,
}
MOMENT = "2026-11-01T12:00:00.000Z"


def params(request: httpx.Request) -> dict[str, str]:
    return dict(request.url.params)


# -- as_of ------------------------------------------------------------------------


def test_every_traversal_sends_as_of(make: Callable[..., Client]) -> None:
    script = Script(*(ok(GRAPH) for _ in range(5)))
    lineage = make(script).lineage
    lineage.get("mart.revenue", as_of=MOMENT)
    lineage.upstream("mart.revenue", as_of=MOMENT, depth=2)
    lineage.downstream("mart.revenue", as_of=MOMENT)
    lineage.column_upstream("mart.revenue", "amount", as_of=MOMENT)
    lineage.column_downstream("mart.revenue", "amount", as_of=MOMENT)
    assert [r.url.path for r in script.requests] == [
        "/api/v1/lineage/mart.revenue",
        "/api/v1/lineage/mart.revenue/upstream",
        "/api/v1/lineage/mart.revenue/downstream",
        "/api/v1/lineage/mart.revenue/columns/amount/upstream",
        "/api/v1/lineage/mart.revenue/columns/amount/downstream",
    ]
    assert all(params(r)["as_of"] == MOMENT for r in script.requests)
    assert params(script.requests[1]) == {"as_of": MOMENT, "depth": "2"}


def test_without_as_of_none_is_sent(make: Callable[..., Client]) -> None:
    script = Script(ok(GRAPH))
    make(script).lineage.upstream("mart.revenue")
    assert "as_of" not in params(script.requests[0])


def test_a_datetime_is_sent_in_utc_to_the_millisecond(make: Callable[..., Client]) -> None:
    script = Script(ok(GRAPH), ok(GRAPH))
    paris = timezone(timedelta(hours=1))
    make(script).lineage.get("a", as_of=datetime(2026, 11, 1, 13, 0, 0, 123456, tzinfo=paris))
    make(script).lineage.get("a", as_of=datetime(2026, 11, 1, 12, tzinfo=UTC))
    assert params(script.requests[0])["as_of"] == "2026-11-01T12:00:00.123Z"
    assert params(script.requests[1])["as_of"] == "2026-11-01T12:00:00.000Z"


def test_a_naive_datetime_is_refused_before_sending(make: Callable[..., Client]) -> None:
    script = Script()
    with pytest.raises(ValueError, match="timezone-aware"):
        make(script).lineage.get("a", as_of=datetime(2026, 11, 1, 12))
    assert script.requests == []


def test_an_asset_missing_then_is_not_found(make: Callable[..., Client]) -> None:
    script = Script(problem(404, "asset_not_found"))
    with pytest.raises(NotFoundError):
        make(script).lineage.get("a", as_of=MOMENT)


# -- diff -------------------------------------------------------------------------


def test_diff_sends_from_and_its_bounds(make: Callable[..., Client]) -> None:
    script = Script(ok(DIFF), ok(DIFF))
    lineage = make(script).lineage
    assert lineage.diff("s3://lake/x", MOMENT) == DIFF
    lineage.diff(
        "s3://lake/x",
        datetime(2026, 11, 1, tzinfo=UTC),
        "2026-11-20T00:00:00Z",
        direction="downstream",
        depth=3,
        limit=100,
    )
    first, second = script.requests
    assert (first.method, first.url.raw_path) == (
        "GET",
        b"/api/v1/lineage/s3%3A%2F%2Flake%2Fx/diff?from=2026-11-01T12%3A00%3A00.000Z",
    )
    assert params(second) == {
        "from": "2026-11-01T00:00:00.000Z",
        "to": "2026-11-20T00:00:00Z",
        "direction": "downstream",
        "depth": "3",
        "limit": "100",
    }


# -- history ----------------------------------------------------------------------


def version(number: int) -> dict[str, Any]:
    change = {"field": "description", "column": None, "change": "set", "to": f"v{number}"}
    return {
        "version": number,
        "at": f"2026-11-0{number}T00:00:00.000Z",
        "actor": "token:tok_1",
        "deleted": False,
        "changes": [{**change, "from": None}],
    }


def test_history_pages_newest_first(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [version(3), version(2)], "next_cursor": "c2"}),
        ok({"items": [version(1)], "next_cursor": None}),
    )
    assets = make(script).assets
    seen = [v["version"] for v in assets.iter_history("model.shop.orders", limit=2)]
    assert seen == [3, 2, 1]
    first, second = script.requests
    assert first.url.path == "/api/v1/assets/model.shop.orders/history"
    assert params(first) == {"limit": "2"}
    assert params(second) == {"limit": "2", "cursor": "c2"}


def test_one_page_of_history(make: Callable[..., Client]) -> None:
    script = Script(ok({"items": [version(1)], "next_cursor": None}))
    page = make(script).assets.list_history("a b", cursor="c1")
    assert page["items"][0]["changes"][0]["to"] == "v1"
    assert script.requests[0].url.raw_path == b"/api/v1/assets/a%20b/history?cursor=c1"


# -- impact -----------------------------------------------------------------------


def test_check_manifest_posts_it_gzipped_with_project_and_namespace(
    make: Callable[..., Client],
) -> None:
    script = Script(ok(REPORT))
    report = make(script).lineage.check_manifest(
        b'{"nodes": {}}', project="shop", namespace="snowflake://acme", depth=3
    )
    assert report == REPORT
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/impact/manifest")
    assert params(request) == {"project": "shop", "namespace": "snowflake://acme", "depth": "3"}
    assert request.headers["content-encoding"] == "gzip"
    assert request.headers["content-type"] == "application/json"
    assert json.loads(gzip.decompress(request.content)) == {"nodes": {}}


def test_a_check_writes_nothing_so_it_is_retried_without_a_key(
    make: Callable[..., Client],
) -> None:
    script = Script(problem(503, "neo4j_unavailable"), ok(REPORT))
    assert make(script).lineage.check_manifest(b"{}")["breaking"] is True
    assert len(script.requests) == 2
    assert all("idempotency-key" not in r.headers for r in script.requests)


def test_a_check_reads_the_manifest_from_a_path(make: Callable[..., Client], tmp_path: Any) -> None:
    manifest = tmp_path / "manifest.json"
    manifest.write_bytes(b'{"nodes": {"a": 1}}')
    script = Script(ok(REPORT))
    make(script).lineage.check_manifest(manifest)
    assert json.loads(gzip.decompress(script.requests[0].content)) == {"nodes": {"a": 1}}
    assert params(script.requests[0]) == {}


# -- edge sets owned by their origin ---------------------------------------------


RETIRED = {"edges": 2, "edges_removed": 1, "column_mappings": 0, "column_mappings_removed": 0}


def test_bulk_names_its_origin_and_replaces_its_set(make: Callable[..., Client]) -> None:
    answer = {"received": 1, "created": 0, "existing": 1, "assets_created": 0, "retired": RETIRED}
    script = Script(ok(answer), ok(answer))
    lineage = make(script).lineage
    assert lineage.bulk([("a", "b")], origin="airflow:sync", replace=True)["retired"] == RETIRED
    lineage.bulk([("a", "b")], origin="airflow:sync")
    assert params(script.requests[0]) == {"origin": "airflow:sync", "replace": "true"}
    assert params(script.requests[1]) == {"origin": "airflow:sync"}


def test_replace_without_an_origin_is_refused(make: Callable[..., Client]) -> None:
    with pytest.raises(ValueError, match="origin"):
        make(Script()).lineage.bulk([("a", "b")], replace=True)


def test_push_bulk_passes_the_origin_to_every_chunk(make: Callable[..., Client]) -> None:
    answer = {"received": 1, "created": 1, "existing": 0, "assets_created": 0}
    script = Script(ok(answer), ok(answer))
    total = make(script).lineage.push_bulk([("a", "b"), ("b", "c")], origin="o", chunk_size=1)
    assert total["created"] == 2
    assert [params(r) for r in script.requests] == [{"origin": "o"}, {"origin": "o"}]


def test_a_replacement_is_one_request(make: Callable[..., Client]) -> None:
    answer = {"received": 2, "created": 0, "existing": 2, "assets_created": 0, "retired": RETIRED}
    script = Script(ok(answer))
    lineage = make(script).lineage
    done = lineage.push_bulk([("a", "b"), ("b", "c")], origin="o", replace=True)
    assert done["retired"] == RETIRED
    with pytest.raises(ValueError, match="one request"):
        lineage.push_bulk([("a", "b"), ("b", "c")], origin="o", replace=True, chunk_size=1)
    assert len(script.requests) == 1


# -- the async twin ---------------------------------------------------------------


@pytest.mark.anyio
async def test_the_async_client_reads_through_time() -> None:
    page = {"items": [version(2), version(1)], "next_cursor": None}
    script = Script(ok(GRAPH), ok(DIFF), ok(page), ok(REPORT))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        await client.lineage.upstream("a", as_of=datetime(2026, 11, 1, tzinfo=UTC))
        assert (await client.lineage.diff("a", MOMENT)) == DIFF
        assert [v["version"] async for v in client.assets.iter_history("a")] == [2, 1]
        assert (await client.lineage.check_manifest(b"{}", project="shop"))["breaking"]
    assert params(script.requests[0]) == {"as_of": "2026-11-01T00:00:00.000Z"}
    assert script.requests[3].url.path == "/api/v1/impact/manifest"
