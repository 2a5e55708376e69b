"""Starting a single sign-on is held to the sign-in limit per browser: each start
stores a flow and calls the provider, so repeated starts from one browser are
answered 429 with Retry-After, without either. Browsers behind one address (a TLS
proxy) each have their own budget, by the mark their first start hands them; starts
without a mark share one per address, and all starts one ceiling."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import neo4j
import pytest

from service.app import create_app
from service.dashboard.sso import BROWSER_COOKIE
from service.settings import RateLimit, Settings
from tests.support.dashboard import browser
from tests.support.identity_provider import IdentityProvider, ProviderUser, through_provider
from tests.support.server import LiveServer

LIMIT = 3
BOB = ProviderUser(id="sub-bob", username="bob", groups=["gov-viewers"])


@pytest.fixture
def throttled(
    oidc_provider: IdentityProvider, make_settings: Callable[..., Settings], clean: None
) -> Iterator[Callable[..., LiveServer]]:
    """Start the service with single sign-on and these rate limits (stopped after)."""
    started: list[LiveServer] = []

    def start(**limits: int) -> LiveServer:
        settings = make_settings(sso=oidc_provider.settings(), rate_limit=RateLimit(**limits))
        started.append(LiveServer(create_app(settings)).start())
        return started[-1]

    yield start
    for server in started:
        server.stop()


def _refused(answer: httpx.Response) -> None:
    assert answer.status_code == 429, answer.text
    assert 0 < int(answer.headers["retry-after"]) <= 60
    assert "Too many sign-ins started" in answer.text


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


def test_an_abuser_behind_a_proxy_is_429_while_other_browsers_there_still_sign_in(
    oidc_provider: IdentityProvider, throttled: Callable[..., LiveServer]
) -> None:
    # Every client here comes from 127.0.0.1, as every browser does behind a proxy
    # whose forwarded headers are not trusted.
    server = throttled(auth_failures_per_minute=LIMIT)
    oidc_provider.set_users([BOB])
    with browser(server) as abuser, browser(server) as bob, browser(server) as carol:
        assert [abuser.get("/auth/oidc/login").status_code for _ in range(LIMIT)] == [303] * 3
        assert abuser.cookies.get(BROWSER_COOKIE, path="/auth/oidc")
        _refused(abuser.get("/auth/oidc/login"))
        signed_in = through_provider(bob, "bob", BOB.password, next_path="/assets")
        assert signed_in.status_code == 303, signed_in.text
        assert bob.get("/assets").status_code == 200
        started = [carol.get("/auth/oidc/login").status_code for _ in range(LIMIT)]
        assert started == [303] * LIMIT
        _refused(carol.get("/auth/oidc/login"))
        _refused(abuser.get("/auth/oidc/login"))


def test_starts_without_a_mark_or_with_a_forged_one_share_one_budget_per_address(
    throttled: Callable[..., LiveServer],
) -> None:
    server = throttled(auth_failures_per_minute=LIMIT)
    forged = {"cookie": f"{BROWSER_COOKIE}=made-up.0123456789abcdef"}
    with httpx.Client(base_url=server.url, follow_redirects=False, timeout=30) as dropper:
        for number in range(LIMIT):
            start = dropper.get("/auth/oidc/login", headers=forged if number else None)
            assert start.status_code == 303, start.text
            assert BROWSER_COOKIE in start.headers["set-cookie"]
            dropper.cookies.clear()
        _refused(dropper.get("/auth/oidc/login"))
        _refused(dropper.get("/auth/oidc/login", headers=forged))


def test_every_start_together_is_held_to_the_ceiling(
    throttled: Callable[..., LiveServer],
) -> None:
    server = throttled(auth_failures_per_minute=LIMIT, sso_starts_per_minute=LIMIT + 1)
    with browser(server) as first, browser(server) as second, browser(server) as third:
        assert [first.get("/auth/oidc/login").status_code for _ in range(LIMIT)] == [303] * 3
        assert second.get("/auth/oidc/login").status_code == 303
        _refused(second.get("/auth/oidc/login"))
        _refused(third.get("/auth/oidc/login"))
