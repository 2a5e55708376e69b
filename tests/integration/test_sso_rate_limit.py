"""Starting a single sign-on is held to the sign-in limit per client address: each
start stores a flow and calls the provider, so repeated starts from one client are
answered 429 with Retry-After, without either."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import neo4j

from service.app import create_app
from service.settings import RateLimit, Settings
from tests.support.identity_provider import IdentityProvider
from tests.support.server import LiveServer

LIMIT = 3


def _flows(driver: neo4j.Driver) -> int:
    records, _, _ = driver.execute_query("MATCH (f:SignInFlow) RETURN count(f) AS n")
    return int(records[0]["n"])


def test_repeated_single_sign_on_starts_from_one_client_are_429_with_retry_after(
    oidc_provider: IdentityProvider,
    make_settings: Callable[..., Settings],
    driver: neo4j.Driver,
    clean: None,
) -> None:
    settings = make_settings(
        sso=oidc_provider.settings(), rate_limit=RateLimit(auth_failures_per_minute=LIMIT)
    )
    server = LiveServer(create_app(settings)).start()
    try:
        with httpx.Client(base_url=server.url, follow_redirects=False, timeout=30) as visitor:
            started = [visitor.get("/auth/oidc/login") for _ in range(LIMIT)]
            assert [s.status_code for s in started] == [303] * LIMIT
            assert all(s.headers["location"].startswith(oidc_provider.issuer) for s in started)
            flows = _flows(driver)
            refused = visitor.get("/auth/oidc/login")
            assert refused.status_code == 429, refused.text
            assert 0 < int(refused.headers["retry-after"]) <= 60
            assert "Too many sign-ins started" in refused.text
            assert "set-cookie" not in refused.headers
            assert _flows(driver) == flows
            # Password sign-in is counted apart: the form still answers.
            assert visitor.get("/login").status_code == 200
    finally:
        server.stop()
