"""Single sign-on in Chromium, through a real OpenID provider process (zitadel/oidc's
example provider on loopback): the sign-in page's button, the provider's own login
form, back to the dashboard with the role the user's group maps to; the role follows
the groups at the next sign-in; signing out passes through the provider's end-session
endpoint; with local passwords off the page has no password form.

The time from the click on "Sign in with …" to the dashboard is printed (the provider's
form is filled by the test, so this is the service and provider's share of the wait).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, expect

from service.app import create_app
from service.settings import Settings
from tests.conftest import Tokens
from tests.e2e.conftest import SCREENSHOTS, Visitor, Watch, watch_foreign
from tests.support.identity_provider import IdentityProvider, ProviderUser
from tests.support.server import LiveServer

ALICE = ProviderUser(id="sub-alice", username="alice", name="Alice Liddell", groups=["gov-editors"])
SIGN_INS = 5


@dataclass(frozen=True)
class Timing:
    total_s: float  # the click on "Sign in with …" to the overview shown
    after_form_s: float  # the provider's form sent to the overview shown: code, token, session


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms ({', '.join(f'{v * 1000:.0f}' for v in values)})"


class Tab:
    """A fresh browser context that may reach the service and the provider only."""

    def __init__(self, browser: Browser, live: LiveServer, oidc_provider: IdentityProvider) -> None:
        self.context = browser.new_context(viewport={"width": 1200, "height": 800})
        self.page: Page = self.context.new_page()
        self.visited: list[str] = []
        self.foreign: list[str] = []
        self.errors: list[str] = []
        allowed = {urlsplit(live.url).netloc, urlsplit(oidc_provider.issuer).netloc}
        self.page.on("request", lambda request: self.visited.append(request.url))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        watch_foreign(self.page, allowed, self.foreign)
        self.base = live.url

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    def sign_in(self, username: str, password: str, shots: str | None = None) -> Timing:
        """Through the provider, timed from the click on the button to the overview."""
        self.page.goto(self.base + "/login")
        if shots:
            self.shot(f"{shots}-1-sign-in-page")
        started = time.perf_counter()
        self.page.get_by_role("button", name="Sign in with Test Provider").click()
        self.page.get_by_label("Username:").fill(username)
        if shots:
            self.shot(f"{shots}-2-provider-login")
        self.page.get_by_label("Password:").fill(password)
        submitted = time.perf_counter()
        self.page.get_by_role("button", name="Login").click()
        self.page.wait_for_url(self.base + "/")
        expect(self.page.get_by_role("button", name="Sign out")).to_be_visible()
        done = time.perf_counter()
        if shots:
            self.shot(f"{shots}-3-dashboard")
        return Timing(done - started, done - submitted)

    def accessibility_violations(self) -> list[str]:
        """Serious and critical axe-core findings, as the other browser tests check."""
        return Visitor(self.page, Watch(), self.base).accessibility_violations()

    def close(self) -> None:
        self.context.close()


def test_signing_in_through_the_provider_reaches_the_dashboard_with_the_mapped_role(
    browser: Browser, oidc_provider: IdentityProvider, sso_live: LiveServer, tokens: Tokens
) -> None:
    oidc_provider.set_users([ALICE])
    timings = []
    for attempt in range(SIGN_INS):
        tab = Tab(browser, sso_live, oidc_provider)
        if attempt == 0:
            tab.page.goto(sso_live.url + "/login")
            assert tab.accessibility_violations() == []
        timings.append(tab.sign_in("alice", ALICE.password, "sso" if attempt == 0 else None))
        nav = tab.page.get_by_role("navigation", name="Main")
        expect(nav.get_by_role("link", name="Settings")).to_be_visible()
        tab.page.goto(sso_live.url + "/settings/users")  # an editor is not an admin
        expect(tab.page.get_by_text("This page needs the admin permission")).to_be_visible()
        assert tab.foreign == [] and tab.errors == []
        tab.close()
    print(
        f"\nsign-in through the provider, {SIGN_INS} sign-ins (the first makes the user): "
        f"click to dashboard {_ms([t.total_s for t in timings])}; "
        f"provider's form sent to dashboard {_ms([t.after_form_s for t in timings])}"
    )


def test_the_next_sign_in_brings_the_new_role_and_signing_out_ends_it_at_the_provider(
    browser: Browser, oidc_provider: IdentityProvider, sso_live: LiveServer, tokens: Tokens
) -> None:
    oidc_provider.set_users([ALICE])
    tab = Tab(browser, sso_live, oidc_provider)
    tab.sign_in("alice", ALICE.password)
    tab.page.get_by_role("button", name="Sign out").click()
    tab.page.wait_for_url(lambda url: url.startswith(sso_live.url + "/login"))
    oidc_provider.set_users([ProviderUser(**{**ALICE.__dict__, "groups": ["gov-admins"]})])
    tab.sign_in("alice", ALICE.password)
    tab.page.goto(sso_live.url + "/settings/users")
    expect(tab.page.get_by_role("heading", name="Users")).to_be_visible()
    tab.shot("sso-4-admin-after-group-change")
    tab.visited.clear()
    tab.page.get_by_role("button", name="Sign out").click()
    tab.page.wait_for_url(lambda url: url.startswith(sso_live.url + "/login"))
    expect(tab.page.get_by_role("button", name="Sign in with Test Provider")).to_be_visible()
    tab.shot("sso-5-signed-out")
    ended = [url for url in tab.visited if url.startswith(oidc_provider.issuer + "end_session")]
    assert ended, f"the browser never reached the provider's end-session: {tab.visited}"
    tab.page.goto(sso_live.url + "/")
    tab.page.wait_for_url(lambda url: "/login" in url)  # the session is over here too
    tab.close()


def test_with_local_passwords_off_the_sign_in_page_has_only_the_provider(
    browser: Browser, oidc_provider: IdentityProvider, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(sso=oidc_provider.settings(local_passwords=False))
    server = LiveServer(create_app(settings)).start()
    try:
        tab = Tab(browser, server, oidc_provider)
        tab.page.goto(server.url + "/login")
        expect(tab.page.get_by_role("button", name="Sign in with Test Provider")).to_be_visible()
        expect(tab.page.get_by_label("Password")).to_have_count(0)
        assert tab.accessibility_violations() == []
        tab.shot("sso-6-passwords-off")
        tab.close()
    finally:
        server.stop()
