"""Authentication: 401/403 shapes, expiry, revocation, throttling, rate limits."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import neo4j
import pytest

from service.app import create_app
from service.domain.access import tokens as token_format
from service.settings import RateLimit, Settings
from tests.conftest import Tokens, make_tokens
from tests.support.server import LiveServer

REALM = 'Bearer realm="governance"'
INVALID = REALM + ', error="invalid_token"'


def _get(
    live: LiveServer, token: str | None, path: str = "/api/v1/assets", **kw: object
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return httpx.get(live.url + path, headers=headers, **kw)  # type: ignore[arg-type]


def test_no_credentials_is_401_with_a_plain_challenge(anonymous: httpx.Client) -> None:
    response = anonymous.get("/assets")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == REALM
    assert response.json()["code"] == "unauthenticated"


def test_another_scheme_counts_as_no_credentials(live: LiveServer, clean: None) -> None:
    response = httpx.get(live.url + "/api/v1/assets", headers={"Authorization": "Basic YTpi"})
    assert response.status_code == 401 and response.headers["www-authenticate"] == REALM


@pytest.mark.parametrize("kind", ["malformed", "bad_checksum", "unknown"])
def test_bad_tokens_are_401_invalid_token_and_indistinguishable(
    live: LiveServer, tokens: Tokens, kind: str
) -> None:
    token = {
        "malformed": "not-a-token",
        "bad_checksum": tokens.read[:-1] + ("0" if tokens.read[-1] != "0" else "1"),
        "unknown": token_format.generate(),
    }[kind]
    response = _get(live, token)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == INVALID
    body = response.json()
    assert body["code"] == "invalid_token"
    assert body["detail"] == "The bearer token is not valid."


def test_a_token_in_the_query_string_is_never_accepted(live: LiveServer, tokens: Tokens) -> None:
    for name in ("access_token", "token"):
        response = httpx.get(live.url + "/api/v1/assets", params={name: tokens.admin})
        assert response.status_code == 401


def test_public_operations_need_no_token(anonymous: httpx.Client, live: LiveServer) -> None:
    assert anonymous.get("").status_code == 200
    assert anonymous.get("/openapi.json").status_code == 200
    for path in ("/healthz", "/readyz", "/metrics"):
        assert httpx.get(live.url + path).status_code == 200


def test_scopes_are_enforced_with_insufficient_scope(
    reader: httpx.Client, writer: httpx.Client
) -> None:
    denied = reader.post("/assets", json={"id": "a", "name": "a", "type": "table"})
    assert denied.status_code == 403
    assert denied.headers["www-authenticate"] == (
        REALM + ', error="insufficient_scope", scope="write"'
    )
    assert denied.json()["code"] == "insufficient_scope"
    assert reader.get("/assets/a").status_code == 404
    assert writer.get("/tokens").status_code == 403
    assert writer.get("/tokens").headers["www-authenticate"].endswith('scope="admin"')


def test_a_higher_scope_includes_lower_ones(admin: httpx.Client) -> None:
    assert admin.post("/assets", json={"id": "a", "name": "a", "type": "table"}).status_code == 201
    assert admin.get("/assets/a").status_code == 200


def test_revocation_is_effective_on_the_next_request(admin: httpx.Client, live: LiveServer) -> None:
    made = admin.post("/tokens", json={"name": "temp", "scopes": ["read"]}).json()
    assert _get(live, made["token"]).status_code == 200
    assert admin.delete(f"/tokens/{made['id']}").status_code == 204
    response = _get(live, made["token"])
    assert response.status_code == 401 and response.headers["www-authenticate"] == INVALID


def test_an_expired_token_is_refused(
    admin: httpx.Client, live: LiveServer, driver: neo4j.Driver
) -> None:
    made = admin.post(
        "/tokens", json={"name": "short", "scopes": ["read"], "expires_in_days": 1}
    ).json()
    assert _get(live, made["token"]).status_code == 200
    driver.execute_query(
        "MATCH (t:ApiToken {id: $id}) SET t.expires_at = '2000-01-01T00:00:00.000Z'", id=made["id"]
    )
    assert _get(live, made["token"]).status_code == 401


@pytest.fixture
def strict_server(
    make_settings: Callable[..., Settings], clean: None
) -> Iterator[tuple[LiveServer, Settings]]:
    # One request per 100 s after the burst: no refill however slow the machine is
    # between the test's requests.
    settings = make_settings(
        rate_limit=RateLimit(per_second=0.01, burst=3, auth_failures_per_minute=3)
    )
    server = LiveServer(create_app(settings)).start()
    yield server, settings
    server.stop()


def test_repeated_failures_from_one_client_are_throttled_but_valid_tokens_are_not(
    strict_server: tuple[LiveServer, Settings],
) -> None:
    server, settings = strict_server
    good = make_tokens(settings, ok=["read"])["ok"]
    statuses = [_get(server, token_format.generate()).status_code for _ in range(4)]
    assert statuses == [401, 401, 401, 429]
    blocked = _get(server, "dgs_not-even-well-formed")
    assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) >= 1
    # Behind a proxy everyone shares one address: the valid token still works.
    assert _get(server, good).status_code == 200
    assert _get(server, token_format.generate()).status_code == 429


def test_rate_limit_per_token_with_headers(strict_server: tuple[LiveServer, Settings]) -> None:
    server, settings = strict_server
    made = make_tokens(settings, a=["read"], b=["read"])
    responses = [_get(server, made["a"]) for _ in range(4)]
    assert [r.status_code for r in responses] == [200, 200, 200, 429]
    assert responses[0].headers["ratelimit-limit"] == "3"
    assert responses[0].headers["ratelimit-remaining"] == "2"
    assert "ratelimit-reset" in responses[0].headers
    assert responses[3].json()["code"] == "rate_limited" and "retry-after" in responses[3].headers
    assert _get(server, made["b"]).status_code == 200
