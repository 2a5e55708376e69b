"""A real browser (Debian's Chromium driven by Playwright) against the live service.

Every page a test opens is watched: a request to any other host is recorded (and
fails at once, since the browser resolves no other host name), and console errors and
uncaught exceptions are collected, so a test can assert that the dashboard loads
nothing from elsewhere and runs without errors.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    Locator,
    Page,
    Playwright,
    Request,
    sync_playwright,
)

from tests.conftest import Tokens, client_for
from tests.support.dashboard import PASSWORD
from tests.support.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "tests" / "e2e" / "screenshots"
AXE = ROOT / "service" / "dashboard" / "static" / "vendor" / "axe.min.js"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # No host name but the loopback's resolves, so a request for another host fails at
    # once; the tests see it through the page's "request" event (`watch_foreign`). Not
    # `page.route`: routing turns off the browser's HTTP cache and sends every request
    # through the test process (the dashboard tests took 9% longer: 103 and 96 s
    # against 91 and 88 s, run back to back).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]


def chromium_path() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).exists():
        pytest.fail("Chromium is missing: `make e2e` installs Debian's chromium package")
    return found


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(
        executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
    )
    yield chromium
    chromium.close()


@dataclass
class Watch:
    """What a page did that a test may want to refuse."""

    foreign_requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def watch_foreign(page: Page, own_hosts: set[str], into: list[str]) -> None:
    """Record in `into` each request `page` makes for a host not in `own_hosts`."""

    def note(request: Request) -> None:
        if urlsplit(request.url).netloc not in own_hosts and not request.url.startswith("data:"):
            into.append(request.url)

    page.on("request", note)


@dataclass
class Visitor:
    page: Page
    watch: Watch
    base: str

    def open(self, path: str) -> Page:
        self.page.goto(self.base + path)
        return self.page

    def sign_in(self, username: str, password: str = PASSWORD) -> None:
        self.open("/login")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(password)
        self.page.get_by_role("button", name="Sign in").click()
        self.page.wait_for_url(lambda url: "/login" not in url)

    def nav(self, name: str) -> Locator:
        """A link of the main navigation (page content may hold links of the same name)."""
        return self.page.get_by_role("navigation", name="Main").get_by_role("link", name=name)

    def screenshot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # From the top: a page captured while scrolled draws its sticky header mid-page.
        self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    def accessibility_violations(self, also: tuple[str, ...] = ()) -> list[str]:
        """Serious and critical axe-core findings on the current page; `also` turns on
        rules axe leaves off by default (such as `target-size`)."""
        self.page.evaluate(AXE.read_text(encoding="utf-8"))
        found = self.page.evaluate(
            "async (also) => (await axe.run(document, {resultTypes: ['violations'],"
            " rules: Object.fromEntries(also.map(id => [id, {enabled: true}]))})).violations"
            ".filter(v => ['serious', 'critical'].includes(v.impact))"
            ".map(v => v.id + ': ' + v.help + ' ' + v.nodes.map(n => n.target.join(' ')).join(', '))",
            list(also),
        )
        return list(found)


@pytest.fixture
def visitor(browser: Browser, live: LiveServer) -> Iterator[Visitor]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    watch = Watch()
    watch_foreign(page, {urlsplit(live.url).netloc}, watch.foreign_requests)
    page.on("pageerror", lambda exc: watch.errors.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: (
            watch.errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None
        ),
    )
    yield Visitor(page, watch, live.url)
    context.close()


@pytest.fixture
def api(live: LiveServer, tokens: Tokens) -> Iterator[httpx.Client]:
    """The API with an admin token made by the CLI (no user)."""
    with client_for(live, tokens.admin) as client:
        yield client
