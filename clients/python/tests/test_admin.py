"""Users, /me, webhooks, the service's probes, column lineage and OpenLineage ingest on
a scripted transport: what goes on the wire and what is retried. No network."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from scripted import Script, ok, problem, refuse

from governance_client import AsyncClient, Client, ConflictError, UnavailableError

EMPTY_PAGE: dict[str, Any] = {"items": [], "next_cursor": None}
USER = {"id": "usr_1", "username": "ada", "role": "editor", "disabled": False}
HOOK = {"id": "whk_1", "url": "https://example.com/hook", "types": ["asset.*"], "enabled": True}
RUN = {"received": 1, "complete": 1, "runs": 1, "edges": {"created": 1, "existing": 0},
       "column_mappings": {"created": 2, "existing": 0}, "assets": {"created": 2, "updated": 0},
       "warnings": []}  # fmt: skip


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)


# -- the service's own endpoints ----------------------------------------------------


def test_probes_live_beside_the_api_without_a_token(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"status": "ok"}), ok({"status": "ready"}), httpx.Response(200, text="up 1\n")
    )
    client = make(script, base_url="https://gov.test/prefix/api/v1")
    assert client.health() == {"status": "ok"}
    assert client.readiness() == {"status": "ready"}
    assert client.metrics() == "up 1\n"
    assert [r.url.path for r in script.requests] == [
        "/prefix/healthz",
        "/prefix/readyz",
        "/prefix/metrics",
    ]
    assert all("authorization" not in r.headers for r in script.requests)


def test_not_ready_is_retried_then_unavailable(make: Callable[..., Client]) -> None:
    script = Script(*[problem(503, "schema_not_applied", headers={"Retry-After": "2"})] * 3)
    with pytest.raises(UnavailableError) as caught:
        make(script).readiness()
    assert caught.value.code == "schema_not_applied"


def test_me_names_the_token_and_its_user(make: Callable[..., Client]) -> None:
    me = {"token": {"id": "tok_1", "user_id": "usr_1"}, "user": USER}
    script = Script(ok(me))
    assert make(script).me() == me
    assert script.requests[0].url.path == "/api/v1/me"
    assert script.requests[0].headers["authorization"] == "Bearer dgs_secret"


# -- users ----------------------------------------------------------------------------


def test_users_are_created_read_patched_and_deleted(make: Callable[..., Client]) -> None:
    script = Script(ok(USER, 201), ok(USER), ok(USER), httpx.Response(204))
    client = make(script)
    client.users.create("ada", password="correct horse battery", role="editor")
    client.users.get("usr_1")
    client.users.patch("usr_1", {"display_name": None, "role": "viewer"})
    client.users.delete("usr_1")
    create, get, patch, delete = script.requests
    assert (create.method, create.url.path) == ("POST", "/api/v1/users")
    assert body_of(create) == {
        "username": "ada",
        "password": "correct horse battery",
        "role": "editor",
    }
    assert create.headers["idempotency-key"]
    assert (get.method, get.url.path) == ("GET", "/api/v1/users/usr_1")
    assert patch.headers["content-type"] == "application/merge-patch+json"
    assert body_of(patch) == {"display_name": None, "role": "viewer"}
    assert (delete.method, delete.url.path) == ("DELETE", "/api/v1/users/usr_1")


def test_users_page_and_the_last_admin_is_a_conflict(make: Callable[..., Client]) -> None:
    script = Script(
        ok({"items": [USER], "next_cursor": "c1"}),
        ok(EMPTY_PAGE),
        problem(409, "last_admin"),
    )
    client = make(script)
    assert [u["id"] for u in client.users.iter(limit=1)] == ["usr_1"]
    with pytest.raises(ConflictError) as caught:
        client.users.delete("usr_admin")
    assert caught.value.code == "last_admin"
    assert len(script.requests) == 3


# -- webhooks ---------------------------------------------------------------------------


def test_a_webhook_is_created_once_with_its_secret(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"))
    with pytest.raises(UnavailableError):
        make(script).webhooks.create("https://example.com/hook", types="asset.*")
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/webhooks")
    assert body_of(request) == {"url": "https://example.com/hook", "types": ["asset.*"]}
    assert "idempotency-key" not in request.headers
    assert len(script.requests) == 1


def test_webhook_operations_on_the_wire(make: Callable[..., Client]) -> None:
    result = {"delivered": True, "status": 204, "error": None, "duration_ms": 3.5}
    script = Script(
        ok(HOOK),
        ok({**HOOK, "enabled": False}),
        problem(503, "neo4j_unavailable"),
        ok(result),
        ok({"items": [{"id": "dlv_1"}], "next_cursor": "c1"}),
        ok({"items": [{"id": "dlv_2"}], "next_cursor": None}),
        ok({"items": [HOOK], "next_cursor": None}),
        httpx.Response(204),
    )
    client = make(script)
    assert client.webhooks.get("whk_1") == HOOK
    client.webhooks.patch("whk_1", {"enabled": False, "description": None})
    assert client.webhooks.test("whk_1") == result
    assert [d["id"] for d in client.webhooks.iter_deliveries("whk_1", limit=1)] == [
        "dlv_1",
        "dlv_2",
    ]
    assert [h["id"] for h in client.webhooks.iter()] == ["whk_1"]
    client.webhooks.delete("whk_1")
    get, patch, *tests, first, second, listed, delete = script.requests
    assert get.url.path == "/api/v1/webhooks/whk_1"
    assert (patch.method, patch.headers["content-type"]) == (
        "PATCH",
        "application/merge-patch+json",
    )
    assert body_of(patch) == {"enabled": False, "description": None}
    assert [t.url.path for t in tests] == ["/api/v1/webhooks/whk_1/test"] * 2
    assert tests[0].headers["idempotency-key"] == tests[1].headers["idempotency-key"]
    assert first.url.path == "/api/v1/webhooks/whk_1/deliveries"
    assert dict(second.url.params) == {"limit": "1", "cursor": "c1"}
    assert listed.url.path == "/api/v1/webhooks"
    assert delete.method == "DELETE"


# -- column lineage -------------------------------------------------------------------


def test_column_lineage_paths_encode_both_segments(make: Callable[..., Client]) -> None:
    script = Script(ok(), ok())
    client = make(script)
    client.lineage.column_upstream("s3://b/k", "order id", depth=2)
    client.lineage.column_downstream("db.orders", "a/b", limit=10)
    assert [(r.url.raw_path, dict(r.url.params)) for r in script.requests] == [
        (b"/api/v1/lineage/s3%3A%2F%2Fb%2Fk/columns/order%20id/upstream?depth=2", {"depth": "2"}),
        (b"/api/v1/lineage/db.orders/columns/a%2Fb/downstream?limit=10", {"limit": "10"}),
    ]  # fmt: skip


def test_an_edge_carries_its_column_mappings(make: Callable[..., Client]) -> None:
    script = Script(ok({}, 201), ok({"received": 1}))
    client = make(script)
    mapping = {"source": "id", "target": "order_id", "transformation": None}
    client.lineage.add_edge("a", "b", columns=[mapping, {"source": "x", "target": "y"}])
    client.lineage.bulk([{"source": "a", "target": "b", "columns": [mapping]}])
    assert body_of(script.requests[0]) == {
        "source": "a",
        "target": "b",
        "columns": [{"source": "id", "target": "order_id"}, {"source": "x", "target": "y"}],
    }
    assert body_of(script.requests[1]) == [
        {"source": "a", "target": "b", "columns": [{"source": "id", "target": "order_id"}]}
    ]


# -- OpenLineage ----------------------------------------------------------------------


def run_event(n: int) -> dict[str, Any]:
    return {"eventType": "COMPLETE", "run": {"runId": f"r{n}"}, "job": {"name": f"j{n}"}}


def test_one_run_event_is_sent_as_an_object(make: Callable[..., Client]) -> None:
    script = Script(ok(RUN))
    assert make(script).lineage.ingest_openlineage(run_event(1)) == RUN
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v1/lineage/openlineage")
    assert body_of(request) == run_event(1)
    assert "idempotency-key" not in request.headers  # events converge: no key needed


def test_run_events_are_retried_without_a_key(make: Callable[..., Client]) -> None:
    script = Script(problem(503, "neo4j_unavailable"), refuse, ok(RUN))
    assert make(script).lineage.ingest_openlineage([run_event(1)]) == RUN
    assert len(script.requests) == 3
    assert all("idempotency-key" not in r.headers for r in script.requests)


def test_many_run_events_are_chunked_and_added_up(make: Callable[..., Client]) -> None:
    script = Script(ok(RUN), ok(RUN), ok({**RUN, "warnings": ["w"]}))
    events = (run_event(n) for n in range(5))
    total = make(script).lineage.ingest_openlineage(
        events, chunk_size=2, options={"idempotency_key": "ol-7"}
    )
    assert [len(body_of(r)) for r in script.requests] == [2, 2, 1]
    assert [r.headers["idempotency-key"] for r in script.requests] == ["ol-7", "ol-7-1", "ol-7-2"]
    assert total["received"] == 3
    assert total["edges"] == {"created": 3, "existing": 0}
    assert total["warnings"] == ["w"]


def test_no_run_events_send_nothing(make: Callable[..., Client]) -> None:
    script = Script()
    assert make(script).lineage.ingest_openlineage([])["received"] == 0
    with pytest.raises(ValueError, match="chunk_size"):
        make(script).lineage.ingest_openlineage([run_event(1)], chunk_size=10_001)
    assert script.requests == []


@pytest.mark.anyio
async def test_the_async_client_has_the_same_operations() -> None:
    script = Script(ok(RUN), ok({"token": {}, "user": None}), ok(EMPTY_PAGE))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        assert (await client.lineage.ingest_openlineage([run_event(1)]))["runs"] == 1
        assert (await client.me())["user"] is None
        assert [u async for u in client.users.iter()] == []
    assert [r.url.path for r in script.requests] == [
        "/api/v1/lineage/openlineage",
        "/api/v1/me",
        "/api/v1/users",
    ]
