"""Client behaviour on a scripted transport: what goes on the wire, how answers
and failures come back, when and how it retries. No network."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted import Script, ok, problem, refuse, time_out

from governance_client import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AsyncClient,
    AuthenticationError,
    Client,
    ConflictError,
    GovernanceError,
    NotFoundError,
    RateLimitedError,
    ServerError,
    UnavailableError,
    ValidationError,
    WebhookVerificationError,
    verify_webhook,
)
from governance_client._retry import MAX_RETRY_AFTER_S, backoff_delay

# -- construction -------------------------------------------------------------


def test_url_and_token_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOVERNANCE_URL", "https://gov.example.com/")
    monkeypatch.setenv("GOVERNANCE_TOKEN", "dgs_fromenv")
    script = Script(ok({"items": [], "next_cursor": None}))
    with Client(transport=httpx.MockTransport(script)) as client:
        assert client.base_url == "https://gov.example.com/api/v1"
        client.assets.list()
    assert script.requests[0].headers["authorization"] == "Bearer dgs_fromenv"


def test_explicit_arguments_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOVERNANCE_URL", "https://env.example.com")
    client = Client(base_url="http://arg.example.com", token="dgs_arg")
    assert client.base_url == "http://arg.example.com/api/v1"
    client.close()


def test_without_any_address_construction_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOVERNANCE_URL", raising=False)
    with pytest.raises(GovernanceError, match="GOVERNANCE_URL"):
        Client()


def test_a_url_that_is_not_http_is_refused() -> None:
    with pytest.raises(ValueError, match="http"):
        Client(base_url="ftp://gov.test")


def test_repr_never_shows_the_token(make: Callable[..., Client]) -> None:
    assert "dgs_secret" not in repr(make(Script()))


def test_service_info_and_openapi_are_fetched_without_a_token(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"service": "s", "version": "1", "api_version": "v1"}), ok({"openapi": "3.1.0"})
    )
    client = make(script)
    assert client.info()["api_version"] == "v1"
    assert client.openapi()["openapi"] == "3.1.0"
    assert [r.url.path for r in script.requests] == ["/api/v1", "/api/v1/openapi.json"]
    assert all("authorization" not in r.headers for r in script.requests)


# -- what goes on the wire ------------------------------------------------------


def test_create_sends_only_the_given_fields(make: Callable[..., Client]) -> None:
    script = Script(ok({"id": "a"}, 201))
    make(script).assets.create("a", name="A", type="table", tags="pii", properties={"rows": 3})
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/assets")
    assert request.headers["content-type"] == "application/json"
    assert request.headers["authorization"] == "Bearer dgs_secret"
    assert json.loads(request.content) == {
        "id": "a",
        "name": "A",
        "type": "table",
        "tags": ["pii"],
        "properties": {"rows": 3},
    }


def test_list_repeats_tag_and_drops_unset_filters(make: Callable[..., Client]) -> None:
    script = Script(ok({"items": [], "next_cursor": None}))
    make(script).assets.list(tags=["pii", "gold"], placeholder=False, limit=10)
    params = script.requests[0].url.params
    assert params.get_list("tag") == ["pii", "gold"]
    assert params["placeholder"] == "false"
    assert params["limit"] == "10"
    assert "owner" not in params


@pytest.mark.parametrize(
    ("given", "sent"), [(3, '"3"'), ("4", '"4"'), ('"5"', '"5"'), ("*", "*"), ('W/"6"', 'W/"6"')]
)
def test_if_match_is_an_entity_tag(make: Callable[..., Client], given: Any, sent: str) -> None:
    script = Script(ok({"id": "a"}))
    make(script).assets.put("a", name="A", type="table", if_match=given)
    assert script.requests[0].headers["if-match"] == sent


def test_patch_is_a_merge_patch(make: Callable[..., Client]) -> None:
    script = Script(ok({"id": "a"}))
    make(script).assets.patch("a", {"description": None, "tags": ["x"]}, if_match=2)
    request = script.requests[0]
    assert request.method == "PATCH"
    assert request.headers["content-type"] == "application/merge-patch+json"
    assert request.headers["if-match"] == '"2"'
    assert json.loads(request.content) == {"description": None, "tags": ["x"]}


def test_dot_segments_are_escaped(make: Callable[..., Client]) -> None:
    script = Script(ok(), ok())
    client = make(script)
    client.assets.get(".")
    client.assets.get("..")
    assert [r.url.raw_path for r in script.requests] == [
        b"/api/v1/assets/%2E",
        b"/api/v1/assets/%2E%2E",
    ]


def test_an_empty_id_is_refused_before_sending(make: Callable[..., Client]) -> None:
    script = Script()
    with pytest.raises(ValueError, match="empty"):
        make(script).assets.get("")
    assert script.requests == []


def test_traversals_use_their_own_paths(make: Callable[..., Client]) -> None:
    script = Script(ok(), ok(), ok())
    client = make(script)
    client.lineage.get("s3://b/k", direction="upstream", depth=2, limit=9)
    client.lineage.upstream("s3://b/k", depth=3)
    client.lineage.downstream("s3://b/k")
    assert [(r.url.raw_path, dict(r.url.params)) for r in script.requests] == [
        (b"/api/v1/lineage/s3%3A%2F%2Fb%2Fk?depth=2&direction=upstream&limit=9", {
            "depth": "2", "direction": "upstream", "limit": "9"}),
        (b"/api/v1/lineage/s3%3A%2F%2Fb%2Fk/upstream?depth=3", {"depth": "3"}),
        (b"/api/v1/lineage/s3%3A%2F%2Fb%2Fk/downstream", {}),
    ]  # fmt: skip


def test_edges_take_mappings_and_tuples(make: Callable[..., Client]) -> None:
    script = Script(ok({"received": 3, "created": 3, "existing": 0, "assets_created": 0}))
    make(script).lineage.bulk(
        [
            ("a", "b"),
            ("b", "c", "select 1"),
            {"source": "c", "target": "d", "transformation": None},
        ],
        strict=True,
    )
    request = script.requests[0]
    assert request.url.params["strict"] == "true"
    assert json.loads(request.content) == [
        {"source": "a", "target": "b"},
        {"source": "b", "target": "c", "transformation": "select 1"},
        {"source": "c", "target": "d"},
    ]


def test_push_bulk_of_nothing_sends_nothing(make: Callable[..., Client]) -> None:
    script = Script()
    result = make(script).lineage.push_bulk([])
    assert result == {"received": 0, "created": 0, "existing": 0, "assets_created": 0}
    assert script.requests == []


@pytest.mark.parametrize("size", [0, 10_001])
def test_push_bulk_refuses_a_chunk_size_the_service_would(
    make: Callable[..., Client], size: int
) -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        make(Script()).lineage.push_bulk([("a", "b")], chunk_size=size)


def test_iter_follows_next_cursor(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [{"id": "a"}, {"id": "b"}], "next_cursor": "c1"}),
        ok({"items": [{"id": "c"}], "next_cursor": None}),
    )
    ids = [a["id"] for a in make(script).assets.iter(q="x", limit=2)]
    assert ids == ["a", "b", "c"]
    assert [dict(r.url.params) for r in script.requests] == [
        {"q": "x", "limit": "2"},
        {"q": "x", "limit": "2", "cursor": "c1"},
    ]


def test_iter_is_lazy(make: Callable[..., Client]) -> None:
    script = Script(ok({"items": [{"source": "a", "target": "b"}], "next_cursor": "c1"}))
    edges = make(script).lineage.iter_edges(source="a")
    assert script.requests == []
    assert next(edges)["target"] == "b"
    assert len(script.requests) == 1


# -- dbt manifests -----------------------------------------------------------------

SUMMARY = {
    "project": "shop",
    "dbt_version": "1.8.10",
    "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
    "assets": {"created": 1, "updated": 0},
    "edges": {"created": 1, "existing": 0, "removed": 0},
    "quality_rules": {"created": 0, "updated": 0, "removed": 0},
    "skipped": 0,
    "warnings": [],
}


def test_a_manifest_path_is_read_and_gzipped(make: Callable[..., Client], tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    manifest.write_bytes(b'{"nodes": {}}')
    script = Script(ok(SUMMARY), ok(SUMMARY))
    client = make(script)
    assert client.lineage.upload_manifest(manifest, project="shop") == SUMMARY
    client.lineage.upload_manifest(str(manifest), prune=False)
    first, second = script.requests
    assert (first.method, first.url.path) == ("POST", "/api/v1/lineage/manifest")
    assert first.headers["content-type"] == "application/json"
    assert first.headers["content-encoding"] == "gzip"
    assert first.headers["idempotency-key"]
    assert gzip.decompress(first.content) == b'{"nodes": {}}'
    assert dict(first.url.params) == {"project": "shop", "prune": "true"}
    assert dict(second.url.params) == {"prune": "false"}
    assert first.extensions["timeout"]["read"] == 600.0


def test_manifest_bytes_are_gzipped_once(make: Callable[..., Client]) -> None:
    script = Script(ok(SUMMARY), ok(SUMMARY))
    client = make(script)
    client.lineage.upload_manifest(b"{}")
    already = gzip.compress(b"{}")
    client.lineage.upload_manifest(already)
    assert gzip.decompress(script.requests[0].content) == b"{}"
    assert script.requests[1].content == already


def test_a_manifest_upload_is_retried_with_one_key(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"), ok(SUMMARY))
    assert make(script).lineage.upload_manifest(b"{}")["project"] == "shop"
    first, second = script.requests
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"]


def test_a_manifest_must_be_a_path_or_bytes(make: Callable[..., Client]) -> None:
    with pytest.raises(TypeError):
        make(Script()).lineage.upload_manifest(42)  # type: ignore[arg-type]


# -- events -----------------------------------------------------------------------


def test_events_list_joins_types_with_commas(make: Callable[..., Client]) -> None:
    script = Script(ok({"items": [], "next_cursor": None}), ok({"items": [], "next_cursor": None}))
    client = make(script)
    assert client.events.list(after=5, types=["asset.*", "lineage.manifest.ingested"]) == {
        "items": [],
        "next_cursor": None,
    }
    client.events.list(types="asset.*", limit=10, cursor="c")
    assert dict(script.requests[0].url.params) == {
        "after": "5",
        "types": "asset.*,lineage.manifest.ingested",
    }
    assert script.requests[0].url.path == "/api/v1/events"
    assert dict(script.requests[1].url.params) == {"types": "asset.*", "limit": "10", "cursor": "c"}


def test_events_iter_follows_next_cursor(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [{"seq": 1}, {"seq": 2}], "next_cursor": "c1"}),
        ok({"items": [{"seq": 3}], "next_cursor": None}),
    )
    seqs = [e["seq"] for e in make(script).events.iter(types=["asset.*"])]
    assert seqs == [1, 2, 3]
    assert [dict(r.url.params) for r in script.requests] == [
        {"types": "asset.*"},
        {"types": "asset.*", "cursor": "c1"},
    ]


def test_an_iterator_starts_at_the_cursor_given_and_sends_after_only_without_one(
    make: Callable[..., Client],
) -> None:
    script = Script(
        ok({"items": [{"seq": 3}], "next_cursor": "c2"}),
        ok({"items": [{"seq": 4}], "next_cursor": None}),
    )
    events = make(script).events
    seqs = [e["seq"] for e in events.iter(after=7, types="asset.*", limit=1, cursor="c1")]
    assert seqs == [3, 4]
    assert [dict(r.url.params) for r in script.requests] == [
        {"types": "asset.*", "limit": "1", "cursor": "c1"},
        {"types": "asset.*", "limit": "1", "cursor": "c2"},
    ]


# -- webhooks -----------------------------------------------------------------------

SECRET = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
BODY = b'{"id":"evt_1","seq":1,"type":"asset.created","data":{"id":"x"}}'


def _signed(timestamp: int, body: bytes = BODY) -> dict[str, str]:
    from governance_client._webhooks import sign_webhook

    return {
        "webhook-id": "evt_1",
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign_webhook(SECRET, "evt_1", timestamp, body),
    }


def test_a_webhook_within_tolerance_is_accepted() -> None:
    now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
    stamp = int(now.timestamp())
    assert verify_webhook(SECRET, _signed(stamp - 299), BODY, now=now)["seq"] == 1
    assert verify_webhook(SECRET, _signed(stamp + 299), BODY.decode(), now=now)["id"] == "evt_1"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, _signed(stamp - 301), BODY, now=now)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, _signed(stamp + 301), BODY, now=now)
    assert verify_webhook(
        SECRET, _signed(stamp - 3000), BODY, now=now, tolerance=timedelta(hours=1)
    )


def test_a_fresh_webhook_is_checked_against_the_clock() -> None:
    stamp = int(datetime.now(UTC).timestamp())
    assert verify_webhook(SECRET, _signed(stamp), BODY)["type"] == "asset.created"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, _signed(stamp - 3600), BODY)


@pytest.mark.parametrize("missing", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_a_webhook_without_a_header_is_refused(missing: str) -> None:
    headers = _signed(1000)
    del headers[missing]
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, headers, BODY, now=1000)


def test_a_webhook_with_a_bad_timestamp_or_body_is_refused() -> None:
    headers = {**_signed(1000), "webhook-timestamp": "soon"}
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, headers, BODY, now=1000)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, _signed(1000, b"not json"), b"not json", now=1000)
    assert issubclass(WebhookVerificationError, GovernanceError)


# -- errors ---------------------------------------------------------------------


def test_a_problem_becomes_a_typed_error(make: Callable[..., Client]) -> None:
    errors = [{"loc": ["body", "name"], "msg": "required", "type": "missing"}]
    script = Script(problem(422, "validation_error", errors=errors))
    with pytest.raises(ValidationError) as caught:
        make(script).assets.create("a", name="", type="table")
    error = caught.value
    assert (error.status, error.code, error.request_id, error.errors) == (
        422,
        "validation_error",
        "rid",
        errors,
    )
    assert "422 validation_error: d (request_id=rid)" in str(error)


def test_an_answer_that_is_not_json_still_makes_an_error(make: Callable[..., Client]) -> None:
    script = Script(httpx.Response(502, text="<html>Bad gateway</html>"))
    with pytest.raises(GovernanceError) as caught:
        make(script, max_retries=0).assets.get("a")
    assert getattr(caught.value, "status", None) == 502
    assert getattr(caught.value, "code", "?") is None


def test_the_token_never_appears_in_an_error(make: Callable[..., Client]) -> None:
    script = Script(problem(401, "invalid_token"))
    with pytest.raises(AuthenticationError) as caught:
        make(script).assets.get("a")
    assert "dgs_secret" not in str(caught.value)


# -- retries --------------------------------------------------------------------


def test_503_is_retried_after_retry_after(make: Callable[..., Client], sleeps: list[float]) -> None:
    script = Script(
        problem(503, "neo4j_unavailable", headers={"Retry-After": "2"}), ok({"id": "a"})
    )
    assert make(script).assets.get("a")["id"] == "a"
    assert sleeps == [2.0]


def test_backoff_grows_and_stops_at_max_retries(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    script = Script(*[problem(500, "internal_error") for _ in range(4)])
    with pytest.raises(ServerError) as caught:
        make(script, max_retries=3).assets.get("a")
    assert type(caught.value) is ServerError
    assert len(script.requests) == 4
    assert sleeps == [0.25, 0.5, 1.0]  # full jitter with rand() = 0.5


def test_backoff_is_capped_and_fully_jittered() -> None:
    assert backoff_delay(20, rand=lambda: 0.0) == 0.0
    assert backoff_delay(20, rand=lambda: 1.0) == 8.0
    assert backoff_delay(1, rand=lambda: 1.0) == 1.0
    assert backoff_delay(0, 1.5) == 1.5
    assert backoff_delay(0, MAX_RETRY_AFTER_S + 1) == MAX_RETRY_AFTER_S


def test_a_long_retry_after_is_waited_for_sixty_seconds_at_most(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    script = Script(*[problem(429, "rate_limited", headers={"Retry-After": "3600"})] * 3)
    with pytest.raises(RateLimitedError) as caught:
        make(script).assets.get("a")
    assert caught.value.retry_after == 3600
    assert sleeps == [MAX_RETRY_AFTER_S, MAX_RETRY_AFTER_S]


def test_connection_errors_are_retried_then_raised(
    make: Callable[..., Client], sleeps: list[float]
) -> None:
    script = Script(refuse, refuse, refuse)
    with pytest.raises(APIConnectionError, match="connection refused"):
        make(script, max_retries=2).assets.get("a")
    assert len(script.requests) == 3
    assert len(sleeps) == 2


def test_a_timeout_is_its_own_error(make: Callable[..., Client]) -> None:
    with pytest.raises(APITimeoutError):
        make(Script(time_out), max_retries=0).assets.get("a")


def test_a_post_carries_one_idempotency_key_across_retries(make: Callable[..., Client]) -> None:
    script = Script(refuse, problem(503, "neo4j_unavailable"), ok({"id": "a"}, 201))
    make(script).assets.create("a", name="A", type="table")
    keys = {r.headers.get("idempotency-key") for r in script.requests}
    assert len(script.requests) == 3
    assert len(keys) == 1
    assert None not in keys


def test_each_call_gets_a_fresh_idempotency_key(make: Callable[..., Client]) -> None:
    script = Script(ok({}, 201), ok({}, 201))
    client = make(script)
    client.lineage.add_edge("a", "b")
    client.lineage.add_edge("a", "b")
    first, second = (r.headers["idempotency-key"] for r in script.requests)
    assert first != second


def test_a_bulk_push_is_retried_without_a_key_as_edges_are_merged(
    make: Callable[..., Client],
) -> None:
    script = Script(refuse, problem(503, "neo4j_unavailable"), ok({"received": 1}))
    assert make(script).lineage.bulk([("a", "b")]) == {"received": 1}
    assert len(script.requests) == 3
    assert all("idempotency-key" not in r.headers for r in script.requests)
    assert len({r.content for r in script.requests}) == 1


def test_a_given_idempotency_key_is_used(make: Callable[..., Client]) -> None:
    script = Script(ok({}, 200))
    make(script).lineage.bulk([("a", "b")], idempotency_key="sync-42")
    assert script.requests[0].headers["idempotency-key"] == "sync-42"


def test_without_retries_a_post_gets_no_key(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"))
    with pytest.raises(UnavailableError):
        make(script, max_retries=0).assets.create("a", name="A", type="table")
    assert "idempotency-key" not in script.requests[0].headers


def test_a_conflict_is_never_retried(make: Callable[..., Client]) -> None:
    script = Script(problem(409, "already_exists"))
    with pytest.raises(ConflictError):
        make(script).assets.create("a", name="A", type="table")
    assert len(script.requests) == 1


def test_token_creation_is_not_retried(make: Callable[..., Client]) -> None:
    """The service would store the answer (the secret) for replay under a key."""
    script = Script(problem(503, "neo4j_unavailable"))
    with pytest.raises(UnavailableError):
        make(script).tokens.create("ci", scopes=["read"])
    assert len(script.requests) == 1
    assert "idempotency-key" not in script.requests[0].headers


def test_patch_is_not_retried(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"))
    with pytest.raises(UnavailableError):
        make(script).assets.patch("a", {"name": "b"})
    assert len(script.requests) == 1


def test_not_found_is_not_retried(make: Callable[..., Client]) -> None:
    script = Script(problem(404, "asset_not_found"))
    with pytest.raises(NotFoundError):
        make(script).assets.delete("a")
    assert len(script.requests) == 1


# -- the async twin -------------------------------------------------------------


@pytest.mark.anyio
async def test_async_client_retries_pages_and_raises() -> None:
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    script = Script(
        problem(503, "neo4j_unavailable", headers={"Retry-After": "1"}),
        ok({"items": [{"id": "a"}], "next_cursor": "c1"}),
        ok({"items": [{"id": "b"}], "next_cursor": None}),
        problem(404, "asset_not_found"),
        ok({"received": 1, "created": 1, "existing": 0, "assets_created": 2}),
        ok({"received": 1, "created": 0, "existing": 1, "assets_created": 0}),
    )
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script), sleep=sleep
    ) as client:
        assert [a["id"] async for a in client.assets.iter()] == ["a", "b"]
        with pytest.raises(NotFoundError) as caught:
            await client.assets.get("s3://x")
        assert caught.value.request_id == "rid"
        total = await client.lineage.push_bulk([("a", "b"), ("a", "b")], chunk_size=1)
    assert total == {"received": 2, "created": 1, "existing": 1, "assets_created": 2}
    assert sleeps == [1.0]
    assert script.requests[3].url.raw_path == b"/api/v1/assets/s3%3A%2F%2Fx"


@pytest.mark.anyio
async def test_async_client_uploads_manifests_and_pages_events() -> None:
    script = Script(
        ok(SUMMARY),
        ok({"items": [{"seq": 1}], "next_cursor": "c1"}),
        ok({"items": [{"seq": 2}], "next_cursor": None}),
        ok({"items": [], "next_cursor": None}),
    )
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        assert (await client.lineage.upload_manifest(b"{}", project="p")) == SUMMARY
        assert [e["seq"] async for e in client.events.iter(after=7, types="asset.*")] == [1, 2]
        assert (await client.events.list()) == {"items": [], "next_cursor": None}
    upload = script.requests[0]
    assert upload.headers["content-encoding"] == "gzip"
    assert gzip.decompress(upload.content) == b"{}"
    assert dict(upload.url.params) == {"project": "p", "prune": "true"}
    assert dict(script.requests[1].url.params) == {"after": "7", "types": "asset.*"}


def test_a_redirect_is_not_followed(make: Callable[..., Client]) -> None:
    script = Script(httpx.Response(301, headers={"Location": "https://gov.test/api/v1/assets/a"}))
    with pytest.raises(APIError, match="redirected to") as caught:
        make(script).assets.get("a")
    assert caught.value.status == 301
    assert len(script.requests) == 1
