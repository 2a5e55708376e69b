"""Policies, quality rules and queries on a scripted transport: what goes on the wire,
how pages are followed, which calls are retried and how. No network."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted import Script, ok, problem, refuse

from governance_client import AsyncClient, Client, UnavailableError, ValidationError

POLICY = {"id": "pol_1", "name": "owners", "kind": "require_owner", "version": 1}
RULE = {"id": "qr_1", "asset_id": "a", "name": "id not null", "type": "not_null", "version": 1}
EMPTY_PAGE: dict[str, Any] = {"items": [], "next_cursor": None}


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)


# -- policies -------------------------------------------------------------------


def test_create_policy_sends_the_given_fields(make: Callable[..., Client]) -> None:
    script = Script(ok(POLICY, 201))
    make(script).policies.create(
        "owners",
        kind="require_owner",
        selector={"type": ["table", "view"], "id_prefix": "raw."},
        severity="high",
        enabled=False,
    )
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/policies")
    assert request.headers["idempotency-key"]
    assert body_of(request) == {
        "name": "owners",
        "kind": "require_owner",
        "enabled": False,
        "severity": "high",
        "selector": {"type": ["table", "view"], "id_prefix": "raw."},
    }


def test_policy_list_filters_and_pages(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [{"id": "pol_1"}], "next_cursor": "c1"}),
        ok({"items": [{"id": "pol_2"}], "next_cursor": None}),
    )
    policies = make(script).policies.iter(kind="tag_propagation", enabled=False, limit=1)
    assert [p["id"] for p in policies] == ["pol_1", "pol_2"]
    assert [dict(r.url.params) for r in script.requests] == [
        {"kind": "tag_propagation", "enabled": "false", "limit": "1"},
        {"kind": "tag_propagation", "enabled": "false", "limit": "1", "cursor": "c1"},
    ]


def test_policy_replace_patch_and_delete_carry_if_match(make: Callable[..., Client]) -> None:
    script = Script(ok(POLICY), ok(POLICY), ok(status=204))
    client = make(script)
    client.policies.replace(
        "pol_1", name="tagged", kind="tag_propagation", params={"tag": "pii"}, if_match=1
    )
    client.policies.patch("pol_1", {"description": None, "enabled": False}, if_match='"2"')
    client.policies.delete("pol_1", if_match=3)
    put, patch, delete = script.requests
    assert (put.method, put.url.path, put.headers["if-match"]) == (
        "PUT",
        "/api/v1/policies/pol_1",
        '"1"',
    )
    assert body_of(put) == {"name": "tagged", "kind": "tag_propagation", "params": {"tag": "pii"}}
    assert patch.headers["content-type"] == "application/merge-patch+json"
    assert body_of(patch) == {"description": None, "enabled": False}
    assert (patch.headers["if-match"], delete.method, delete.headers["if-match"]) == (
        '"2"',
        "DELETE",
        '"3"',
    )


def test_violations_follow_next_cursor_over_the_violations_list(
    make: Callable[..., Client],
) -> None:
    first = {
        "policy_id": "pol_1",
        "evaluated_at": "2026-01-01T00:00:00.000Z",
        "violations": [{"asset_id": "a", "reason": "no owner", "opened_at": "t"}],
        "next_cursor": "c1",
    }
    second = {**first, "violations": [{"asset_id": "b", "reason": "no owner"}], "next_cursor": None}
    script = Script(ok(first), ok(second))
    violations = make(script).policies.iter_violations("pol/1", limit=1)
    assert script.requests == []
    assert [v["asset_id"] for v in violations] == ["a", "b"]
    assert [r.url.raw_path for r in script.requests] == [
        b"/api/v1/policies/pol%2F1/violations?limit=1",
        b"/api/v1/policies/pol%2F1/violations?limit=1&cursor=c1",
    ]


def test_evaluate_posts_no_body_with_a_key_and_is_retried(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    summary = {"evaluated_at": "t", "policies": [{"policy_id": "pol_1", "violations": 1}]}
    script = Script(problem(503, "neo4j_unavailable", headers={"Retry-After": "1"}), ok(summary))
    assert make(script).policies.evaluate() == summary
    first, second = script.requests
    assert (first.method, first.url.path) == ("POST", "/api/v1/policies/evaluate")
    assert first.content == b""
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"]
    assert sleeps == [1.0]


def test_a_bad_kind_is_a_validation_error_with_its_loc(make: Callable[..., Client]) -> None:
    errors = [{"loc": ["body", "kind"], "msg": "Input should be ...", "type": "literal_error"}]
    script = Script(problem(422, "validation_error", errors=errors))
    with pytest.raises(ValidationError) as caught:
        make(script).policies.create("x", kind="require_magic")
    assert caught.value.errors[0]["loc"] == ["body", "kind"]
    assert len(script.requests) == 1


# -- quality --------------------------------------------------------------------


def test_create_rule_and_list_filters(make: Callable[..., Client]) -> None:
    script = Script(ok(RULE, 201), ok(EMPTY_PAGE))
    client = make(script)
    client.quality.create(
        "s3://lake/a", name="status ok", type="accepted_values", column="status",
        params={"values": ["placed", "shipped"]}, severity="error",
    )  # fmt: skip
    client.quality.list(asset_id="s3://lake/a", status="failing", type="not_null", limit=5)
    create, listing = script.requests
    assert (create.method, create.url.path) == ("POST", "/api/v1/quality/rules")
    assert body_of(create) == {
        "asset_id": "s3://lake/a",
        "column": "status",
        "name": "status ok",
        "type": "accepted_values",
        "params": {"values": ["placed", "shipped"]},
        "severity": "error",
    }
    assert dict(listing.url.params) == {
        "asset_id": "s3://lake/a",
        "status": "failing",
        "type": "not_null",
        "limit": "5",
    }


def test_rule_replace_patch_delete(make: Callable[..., Client]) -> None:
    script = Script(ok(RULE), ok(RULE), ok(status=204))
    client = make(script)
    client.quality.replace("qr_1", asset_id="a", name="n", type="unique", enabled=False, if_match=2)
    client.quality.patch("qr_1", {"severity": "error"})
    client.quality.delete("test.shop.unique_orders_id.abc")
    put, patch, delete = script.requests
    assert (put.method, put.headers["if-match"]) == ("PUT", '"2"')
    assert body_of(put) == {"asset_id": "a", "name": "n", "type": "unique", "enabled": False}
    assert patch.headers["content-type"] == "application/merge-patch+json"
    assert "if-match" not in patch.headers
    assert delete.url.raw_path == b"/api/v1/quality/rules/test.shop.unique_orders_id.abc"


def test_record_result_formats_run_at_and_keeps_falsy_values(make: Callable[..., Client]) -> None:
    script = Script(ok({"id": "r1"}, 201), ok({"id": "r2"}, 201), ok({"id": "r3"}, 201))
    client = make(script)
    at = datetime(2026, 3, 1, 14, 30, 5, 123456, tzinfo=timezone(timedelta(hours=2)))
    client.quality.record_result("qr_1", "pass", observed_value=0, message="", run_at=at)
    client.quality.record_result("qr_1", "fail", run_at="2026-03-01T12:00:00Z")
    client.quality.record_result("qr_1", "error")
    first, second, third = script.requests
    assert (first.method, first.url.path) == ("POST", "/api/v1/quality/rules/qr_1/results")
    assert first.headers["idempotency-key"]
    assert body_of(first) == {
        "status": "pass",
        "observed_value": 0,
        "message": "",
        "run_at": "2026-03-01T12:30:05.123Z",
    }
    assert body_of(second) == {"status": "fail", "run_at": "2026-03-01T12:00:00Z"}
    assert body_of(third) == {"status": "error"}


def test_a_naive_run_at_is_refused_before_sending(make: Callable[..., Client]) -> None:
    script = Script()
    with pytest.raises(ValueError, match="timezone"):
        make(script).quality.record_result("qr_1", "pass", run_at=datetime(2026, 1, 1))
    assert script.requests == []


def test_results_page_newest_first(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [{"id": "r3"}, {"id": "r2"}], "next_cursor": "c1"}),
        ok({"items": [{"id": "r1"}], "next_cursor": None}),
    )
    assert [r["id"] for r in make(script).quality.iter_results("qr_1", limit=2)] == [
        "r3",
        "r2",
        "r1",
    ]
    assert dict(script.requests[1].url.params) == {"limit": "2", "cursor": "c1"}


DBT_SUMMARY = {
    "received": 1,
    "recorded": 1,
    "unmatched": [],
    "skipped": 0,
    "ignored": 0,
    "stale": 0,
    "duplicates": 0,
    "failed": ["test.a"],
    "recovered": [],
}


def test_dbt_results_go_gzipped_from_a_path_bytes_or_a_dict(
    make: Callable[..., Client], tmp_path: Path
) -> None:
    path = tmp_path / "run_results.json"
    path.write_bytes(b'{"results": []}')
    script = Script(ok(DBT_SUMMARY), ok(DBT_SUMMARY), ok(DBT_SUMMARY), ok(DBT_SUMMARY))
    client = make(script)
    assert client.quality.upload_dbt_results(path) == DBT_SUMMARY
    client.quality.upload_dbt_results(str(path))
    client.quality.upload_dbt_results(gzip.compress(b"{}"))
    client.quality.upload_dbt_results({"results": [], "metadata": {"invocation_id": "é"}})
    first, second, third, fourth = script.requests
    assert (first.method, first.url.path) == ("POST", "/api/v1/quality/results/dbt")
    assert first.headers["content-encoding"] == "gzip"
    assert first.headers["content-type"] == "application/json"
    assert first.headers["idempotency-key"]
    assert first.extensions["timeout"]["read"] == 600.0
    assert gzip.decompress(first.content) == gzip.decompress(second.content) == b'{"results": []}'
    assert gzip.decompress(third.content) == b"{}"
    assert json.loads(gzip.decompress(fourth.content)) == {
        "results": [],
        "metadata": {"invocation_id": "é"},
    }


def test_dbt_results_must_be_a_path_bytes_or_a_dict(make: Callable[..., Client]) -> None:
    with pytest.raises(TypeError, match="run_results"):
        make(Script()).quality.upload_dbt_results(42)  # type: ignore[arg-type]


# -- query ----------------------------------------------------------------------

DOWNSTREAM = {
    "start": {"ids": ["raw.orders"]},
    "traverse": {"direction": "downstream", "max_depth": 10},
    "return": "nodes",
    "limit": 1,
}


def test_a_query_is_posted_as_it_is_without_a_key(make: Callable[..., Client]) -> None:
    script = Script(ok({"count": 3, "next_cursor": None}))
    answer = make(script).query.run({**DOWNSTREAM, "return": "count"})
    assert answer == {"count": 3, "next_cursor": None}
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/query")
    assert body_of(request) == {**DOWNSTREAM, "return": "count"}
    assert "idempotency-key" not in request.headers


def test_a_query_only_reads_so_it_is_retried_without_a_key(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    empty = ok({"nodes": [], "next_cursor": None})
    script = Script(refuse, problem(503, "neo4j_unavailable"), empty)
    assert make(script).query.run(DOWNSTREAM)["nodes"] == []
    assert len(script.requests) == 3
    assert all("idempotency-key" not in r.headers for r in script.requests)
    assert len(sleeps) == 2


def test_a_refused_query_is_not_retried(make: Callable[..., Client]) -> None:
    errors = [{"loc": ["body", "traverse", "depth"], "msg": "extra", "type": "extra_forbidden"}]
    script = Script(problem(422, "validation_error", errors=errors))
    with pytest.raises(ValidationError) as caught:
        make(script).query.run({"start": {"ids": ["a"]}, "traverse": {"depth": 3}})
    assert caught.value.errors[0]["loc"] == ["body", "traverse", "depth"]
    assert len(script.requests) == 1


def test_pages_send_the_same_body_with_each_cursor(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"nodes": [{"id": "a", "distance": 1}], "next_cursor": "c1"}),
        ok({"nodes": [{"id": "b", "distance": 2}], "next_cursor": "c2"}),
        ok({"nodes": [{"id": "c", "distance": 3}], "next_cursor": None}),
    )
    pages = list(make(script).query.pages(DOWNSTREAM))
    assert [p["nodes"][0]["id"] for p in pages] == ["a", "b", "c"]
    assert [body_of(r) for r in script.requests] == [
        DOWNSTREAM,
        {**DOWNSTREAM, "cursor": "c1"},
        {**DOWNSTREAM, "cursor": "c2"},
    ]
    assert "cursor" not in DOWNSTREAM


def test_iter_yields_the_items_of_the_return_form(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"nodes": [{"id": "a"}, {"id": "b"}], "next_cursor": "c1"}),
        ok({"nodes": [{"id": "c"}], "next_cursor": None}),
        ok({"paths": [["a", "b"]], "truncated": False, "next_cursor": None}),
        ok({"edges": [], "next_cursor": None}),
    )
    client = make(script)
    assert [n["id"] for n in client.query.iter({**DOWNSTREAM, "limit": 2})] == ["a", "b", "c"]
    assert list(client.query.iter({"path": {"from": "a", "to": "b"}})) == [["a", "b"]]
    assert list(client.query.iter({"start": {"ids": ["a"]}, "return": "edges"})) == []


@pytest.mark.parametrize("form", ["graph", "count"])
def test_iter_refuses_forms_without_one_list_at_once(
    make: Callable[..., Client], form: str
) -> None:
    script = Script()
    with pytest.raises(ValueError, match="pages"):
        make(script).query.iter({**DOWNSTREAM, "return": form})
    assert script.requests == []


def test_cypher_sends_query_parameters_and_limit(make: Callable[..., Client]) -> None:
    answer = {"columns": ["id"], "rows": [["a"]], "truncated": False}
    script = Script(refuse, ok(answer), ok(answer))
    client = make(script)
    assert client.query.cypher("MATCH (a:Asset {id: $id}) RETURN a.id AS id", {"id": "a"}, limit=5)
    client.query.cypher("RETURN 1 AS one")
    retried, sent, plain = script.requests
    assert (sent.method, sent.url.path) == ("POST", "/api/v1/query/cypher")
    assert retried.content == sent.content
    assert "idempotency-key" not in sent.headers
    assert body_of(sent) == {
        "query": "MATCH (a:Asset {id: $id}) RETURN a.id AS id",
        "parameters": {"id": "a"},
        "limit": 5,
    }
    assert body_of(plain) == {"query": "RETURN 1 AS one"}


def test_without_retries_a_query_is_tried_once(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"))
    with pytest.raises(UnavailableError):
        make(script, max_retries=0).query.cypher("RETURN 1")
    assert len(script.requests) == 1


# -- the async twin ---------------------------------------------------------------


@pytest.mark.anyio
async def test_async_policies_quality_and_query() -> None:
    violations = {
        "policy_id": "pol_1",
        "evaluated_at": None,
        "violations": [{"asset_id": "a", "reason": "r"}],
        "next_cursor": None,
    }
    script = Script(
        ok(POLICY, 201),
        ok({"evaluated_at": "t", "policies": []}),
        ok(violations),
        ok({"id": "r1"}, 201),
        ok({"items": [{"id": "r1"}], "next_cursor": None}),
        ok(DBT_SUMMARY),
        problem(503, "neo4j_unavailable", headers={"Retry-After": "0"}),
        ok({"nodes": [{"id": "x"}], "next_cursor": "c1"}),
        ok({"nodes": [{"id": "y"}], "next_cursor": None}),
        ok({"columns": ["n"], "rows": [[1]], "truncated": False}),
        ok(status=204),
    )
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        created = await client.policies.create("owners", kind="require_owner")
        assert created["id"] == "pol_1"
        assert (await client.policies.evaluate())["policies"] == []
        assert [v["asset_id"] async for v in client.policies.iter_violations("pol_1")] == ["a"]
        now = datetime.now(UTC)
        await client.quality.record_result("qr_1", "fail", observed_value=3, run_at=now)
        assert [r["id"] async for r in client.quality.iter_results("qr_1")] == ["r1"]
        assert (await client.quality.upload_dbt_results({"results": []}))["failed"] == ["test.a"]
        assert [n["id"] async for n in client.query.iter(DOWNSTREAM)] == ["x", "y"]
        assert (await client.query.cypher("RETURN 1 AS n"))["rows"] == [[1]]
        await client.policies.delete("pol_1", if_match=1)
    paths = [(r.method, r.url.path) for r in script.requests]
    assert paths == [
        ("POST", "/api/v1/policies"),
        ("POST", "/api/v1/policies/evaluate"),
        ("GET", "/api/v1/policies/pol_1/violations"),
        ("POST", "/api/v1/quality/rules/qr_1/results"),
        ("GET", "/api/v1/quality/rules/qr_1/results"),
        ("POST", "/api/v1/quality/results/dbt"),
        ("POST", "/api/v1/query"),
        ("POST", "/api/v1/query"),
        ("POST", "/api/v1/query"),
        ("POST", "/api/v1/query/cypher"),
        ("DELETE", "/api/v1/policies/pol_1"),
    ]
    assert body_of(script.requests[8]) == {**DOWNSTREAM, "cursor": "c1"}
    assert script.requests[10].headers["if-match"] == '"1"'
