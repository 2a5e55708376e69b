"""Lineage traversals re-check the caller's token inside their own statement instead of
a separate look-up. A token revoked, expired or disabled through one process must be
refused by the very next traversal in another process that knows it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import neo4j
import pytest

from tests.conftest import Tokens
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import ServiceProcess


@pytest.fixture(scope="module")
def two_processes(
    neo4j_target: Neo4jTarget, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ServiceProcess, ServiceProcess]]:
    """Started once for the module: each test makes its own tokens on a cleared graph
    (`tokens`), which neither process has seen before."""
    logs = tmp_path_factory.mktemp("recheck")
    first = ServiceProcess(neo4j_target, log_path=logs / "first.log").start()
    try:
        second = ServiceProcess(neo4j_target, log_path=logs / "second.log").start()
        try:
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()


def _client(service: ServiceProcess, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=service.url + "/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


def _make_token(admin: httpx.Client, name: str, scopes: list[str]) -> tuple[str, str]:
    response = admin.post("/tokens", json={"name": name, "scopes": scopes})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["token"]


def test_a_token_revoked_through_one_process_is_refused_by_the_next_traversal_in_another(
    two_processes: tuple[ServiceProcess, ServiceProcess], tokens: Tokens
) -> None:
    first, second = two_processes
    with _client(first, tokens.admin) as admin_first:
        for asset in ("raw", "mart"):
            created = admin_first.post(
                "/assets", json={"id": asset, "name": asset, "type": "table"}
            )
            assert created.status_code == 201, created.text
        assert admin_first.post(
            "/lineage", json={"source": "raw", "target": "mart"}
        ).status_code in (
            200,
            201,
        )
        token_id, secret = _make_token(admin_first, "reader", ["read"])
        with _client(second, secret) as reader_second:
            # The second process learns the token, then serves it without a look-up.
            for _ in range(3):
                known = reader_second.get("/lineage/mart/upstream", params={"depth": 2})
                assert known.status_code == 200, known.text
                assert [n["id"] for n in known.json()["nodes"]] == ["mart", "raw"]
            assert admin_first.delete(f"/tokens/{token_id}").status_code == 204
            refused = reader_second.get("/lineage/mart/upstream", params={"depth": 2})
            assert refused.status_code == 401, refused.text
            assert refused.json()["code"] == "invalid_token"
            assert 'error="invalid_token"' in refused.headers["www-authenticate"]
            # Refused on the other traversal routes too, and on routes that look it up.
            for path in ("/lineage/mart/downstream", "/lineage/mart", "/assets/mart"):
                assert reader_second.get(path).status_code == 401, path


def test_a_disabled_users_token_is_refused_by_a_traversal_that_knew_it(
    two_processes: tuple[ServiceProcess, ServiceProcess], tokens: Tokens, driver: neo4j.Driver
) -> None:
    first, second = two_processes
    with _client(first, tokens.admin) as admin:
        assert (
            admin.post("/assets", json={"id": "a", "name": "a", "type": "table"}).status_code == 201
        )
        user = admin.post(
            "/users",
            json={"username": "vera", "password": "correct horse battery", "role": "viewer"},
        )
        assert user.status_code == 201, user.text
    # A viewer's own token, as made in the dashboard: stored under the user's id.
    with _client(first, tokens.admin) as admin:
        _, secret = _make_token(admin, "vera-token", ["read"])
    driver.execute_query(
        "MATCH (t:ApiToken {name: 'vera-token'}) SET t.user_id = $user", user=user.json()["id"]
    )
    with _client(second, secret) as vera:
        assert vera.get("/lineage/a/downstream").status_code == 200
        with _client(first, tokens.admin) as admin:
            disabled = admin.patch(f"/users/{user.json()['id']}", json={"disabled": True})
            assert disabled.status_code == 200, disabled.text
        assert vera.get("/lineage/a/downstream").status_code == 401
