"""The dashboard on a phone (390 x 844): no page scrolls sideways, the main navigation
folds behind a menu button that a tap or the keyboard opens and that then shows every
link on screen, and without JavaScript the navigation simply wraps. Desktop keeps its
one-line top bar."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from service.dashboard.routes import MODULES
from tests.e2e.conftest import Visitor, Watch
from tests.e2e.shared import REVENUE_SQL
from tests.support.dashboard import PASSWORD, make_user
from tests.support.server import LiveServer

PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1400, height=900)
MAIN_LINKS = ("Assets", "Lineage", "Policies", "Quality", "Events", "Ingest", "Settings")

# An id with no place to break, as warehouses make them: it must wrap, not widen.
LONG = (
    "snowflake://acme-production-warehouse/ANALYTICS_PRODUCTION_DATABASE."
    "REPORTING_SCHEMA_FOR_FINANCE.QUARTERLY_REVENUE_BY_CUSTOMER_SEGMENT_AND_REGION"
)
LONG_ASSET = {
    "id": LONG,
    "name": LONG.rsplit(".", 1)[-1],
    "type": "table",
    "platform": "snowflake",
    "description": "Revenue " + "by_segment_and_region_" * 8,
    "owners": ["finance-data-platform-team-reporting@acme-production.example.com"],
    "tags": ["pii_customer_identifiers_restricted", "finance_quarterly_close"],
    "columns": [
        {"name": "CUSTOMER_SEGMENT_IDENTIFIER_FROM_CRM_EXPORT", "type": "VARCHAR(16777216)"},
        {"name": "revenue", "type": "NUMBER(38,2)", "description": "Recognised revenue"},
    ],
    "properties": {"materialization_strategy_for_incremental_loads": "merge_on_key"},
    "dataset": {
        "namespace": "snowflake://acme-production-warehouse",
        "name": "ANALYTICS_PRODUCTION_DATABASE.REPORTING_SCHEMA_FOR_FINANCE.QUARTERLY",
    },
}
TEAM = "finance-reporting-and-quarterly-close-for-the-group-of-companies"[:63]
RAW = "shop.raw_orders"
ORDERS = "shop.orders"


def page_urls() -> dict[str, list[str]]:
    """Every dashboard page (a GET route that answers HTML), keyed by its route path,
    with the addresses the test opens for it."""
    long_id = quote(LONG, safe="")
    return {
        "/login": [],  # opened signed out, before the others
        "/": ["/"],
        "/assets": ["/assets", f"/assets?q={quote(LONG[:40], safe='')}"],
        "/assets/{asset_id}": [f"/assets/{ORDERS}", f"/assets/{long_id}", "/assets/no.such"],
        "/assets/{asset_id}/history": [f"/assets/{long_id}/history"],
        "/assets/{asset_id}/history/export": [],  # a file to download, not a page
        "/lineage": ["/lineage"],
        "/lineage/{asset_id}": [f"/lineage/{ORDERS}", f"/lineage/{long_id}?depth=2"],
        "/policies": ["/policies"],
        "/quality": ["/quality"],
        "/events": ["/events"],
        "/ingest": ["/ingest"],
        "/settings": ["/settings"],
        "/settings/tokens": ["/settings/tokens"],
        "/settings/users": ["/settings/users"],
        "/settings/teams": ["/settings/teams"],
        "/settings/domains": ["/settings/domains"],
    }


def dashboard_pages() -> set[str]:
    """The route paths of the dashboard's pages: its modules' GET routes, less the JSON
    the pages' scripts read (under /ui)."""
    found = set()
    for route in (route for module in MODULES for route in module.routes):
        methods = getattr(route, "methods", None) or set()
        path = getattr(route, "path", "")
        if "GET" in methods and not path.startswith("/ui/"):
            found.add(path)
    return found


def post(api: httpx.Client, path: str, body: Mapping[str, object]) -> dict[str, object]:
    answer = api.post(path, json=body)
    assert answer.status_code in (200, 201), answer.text
    found: dict[str, object] = answer.json()
    return found


def shop(api: httpx.Client) -> None:
    """Raw orders (no owner: a policy violation) -> orders (a failing rule) -> an asset
    whose id, name, dataset, owner, columns and tags are each long and unbroken, changed
    once so it has history: every page then has rows, badges and long words to place."""
    post(api, "/assets", {"id": RAW, "name": "raw_orders", "type": "table"})
    orders = {"id": ORDERS, "name": "orders", "type": "table", "owners": ["sales@example.com"]}
    post(api, "/assets", {**orders, "columns": [{"name": "order_id"}, {"name": "amount"}]})
    post(api, "/assets", LONG_ASSET)
    patch = {"description": "Revenue recognised, " + "by_segment_and_region_" * 8}
    answer = api.patch(
        f"/assets/{quote(LONG, safe='')}",
        content=json.dumps(patch),
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert answer.status_code == 200, answer.text
    team = {"display_name": "Finance reporting " + "and_quarterly_close_" * 5}
    assert api.put(f"/teams/{TEAM}", json=team).status_code == 201
    domain = {
        "display_name": "Quarterly close " + "reporting_for_finance_" * 5,
        "owner_team": TEAM,
        "rules": [{"kind": "tag", "value": "finance_quarterly_close"}],
    }
    assert api.put(f"/domains/{TEAM}", json=domain).status_code == 201
    post(api, "/lineage", {"source": RAW, "target": ORDERS})
    post(api, "/lineage", {"source": ORDERS, "target": LONG})
    rule = {"asset_id": ORDERS, "column": "order_id", "name": "order_id is never null"}
    made = post(api, "/quality/rules", {**rule, "type": "not_null", "severity": "error"})
    failing = {"status": "fail", "observed_value": 3, "message": "3 rows: " + "order_id_" * 12}
    post(api, f"/quality/rules/{made['id']}/results", failing)
    owners = {"name": "Tables have owners", "kind": "require_owner", "severity": "high"}
    post(api, "/policies", {**owners, "selector": {"type": "table"}})
    assert api.post("/policies/evaluate").status_code == 200


# The elements reaching past the viewport's right edge that no narrower scrolling box
# holds: what makes the page scroll sideways, named for the failure message.
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.classList.length ? "." + [...el.classList].join(".") : "");
  const held = (el) => {
    if (["absolute", "fixed"].includes(getComputedStyle(el).position)) return false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") {
        return p.getBoundingClientRect().right <= width + 0.5;
      }
    }
    return false;
  };
  return [...document.body.querySelectorAll("*")]
    .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !held(el))
    .map((el) => name(el) + " to " + Math.round(el.getBoundingClientRect().right) + "px")
    .slice(0, 6);
}"""


def sideways(page: Page) -> str | None:
    """Why the page scrolls sideways, or None when it does not."""
    width = page.evaluate("document.documentElement.scrollWidth")
    if width <= PHONE["width"]:
        return None
    return f"{width}px wide: {', '.join(page.evaluate(OVERFLOWING))}"


def menu_reaches_every_link(visitor: Visitor) -> None:
    """The menu starts closed, opens on a tap, and then shows every link of the main
    navigation and the sign-out button whole, inside the viewport."""
    page = visitor.page
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(visitor.nav("Assets")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    links = page.get_by_role("navigation", name="Main").get_by_role("link")
    assert links.all_inner_texts() == list(MAIN_LINKS)
    for link in links.all():
        expect(link).to_be_in_viewport(ratio=1)
        box = link.bounding_box()
        assert box is not None and box["height"] >= 24, box  # a target a thumb can hit
    expect(page.get_by_role("button", name="Sign out")).to_be_in_viewport(ratio=1)
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "false")


def phone_name(url: str) -> str:
    """A screenshot's name: the path, its long id cut to its two ends."""
    name = re.sub(r"[^A-Za-z0-9.]+", "_", url.split("?")[0])
    return "phone" + (name if len(name) < 60 else name[:30] + "_" + name[-24:])


def test_every_page_is_reachable_without_scrolling_sideways_on_a_phone(
    visitor: Visitor, api: httpx.Client
) -> None:
    urls = page_urls()
    assert set(urls) == dashboard_pages(), "a new page: add it to page_urls"
    shop(api)
    make_user(api, "thumb", "admin")
    visitor.page.set_viewport_size(PHONE)
    wide = {}
    visitor.open("/login")
    visitor.screenshot("phone_login")
    wide["/login"] = sideways(visitor.page)
    visitor.sign_in("thumb")
    for url in [u for listed in urls.values() for u in listed]:
        visitor.open(url)
        if url.startswith("/lineage/"):
            visitor.page.wait_for_selector("[data-lineage][data-lineage-ready='true']")
        wide[url] = sideways(visitor.page)
        visitor.screenshot(phone_name(url))
        menu_reaches_every_link(visitor)
    assert {url: why for url, why in wide.items() if why} == {}
    assert [e for e in visitor.watch.errors if "status of 404" not in e] == []  # /assets/no.such


def test_pages_a_form_answers_fit_a_phone(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    """A new token (a long secret and a curl line) and a SQL file's summary with its
    failures (a long parser message)."""
    make_user(api, "thumb-editor", "editor")
    visitor.page.set_viewport_size(PHONE)
    visitor.sign_in("thumb-editor")
    visitor.open("/settings/tokens")
    visitor.page.get_by_label("Name").fill("phone-made-token-for-the-nightly-loader")
    visitor.page.get_by_role("button", name="Create token").click()
    expect(visitor.page.get_by_test_id("new-token")).to_be_visible()
    visitor.screenshot("phone_settings_tokens_created")
    assert sideways(visitor.page) is None

    visitor.open("/ingest")
    sql = visitor.page.get_by_role("form", name="Ingest SQL")
    sql_file = tmp_path / "quarterly_revenue_by_customer_segment_and_region.sql"
    sql_file.write_text(REVENUE_SQL, encoding="utf-8")
    sql.get_by_label("SQL file").set_input_files(str(sql_file))
    sql.get_by_label("Namespace").fill("duckdb://warehouse")
    sql.get_by_role("button", name="Ingest SQL").click()
    expect(visitor.page.get_by_test_id("sql-failures")).to_be_visible()
    visitor.screenshot("phone_ingest_sql")
    assert sideways(visitor.page) is None


@pytest.mark.parametrize("path", ["/", "/assets", f"/assets/{ORDERS}", "/events", "/ingest"])
def test_pages_on_a_phone_have_no_serious_accessibility_findings(
    visitor: Visitor, api: httpx.Client, path: str
) -> None:
    shop(api)
    make_user(api, "thumb-auditor", "admin")
    visitor.page.set_viewport_size(PHONE)
    visitor.sign_in("thumb-auditor")
    visitor.open(path)
    assert visitor.accessibility_violations(also=("target-size",)) == []
    visitor.page.get_by_role("button", name="Menu").click()
    assert visitor.accessibility_violations(also=("target-size",)) == []


def test_the_menu_works_from_the_keyboard(visitor: Visitor, api: httpx.Client) -> None:
    make_user(api, "keys-only", "viewer")
    visitor.page.set_viewport_size(PHONE)
    visitor.sign_in("keys-only")
    page = visitor.page
    menu = page.get_by_role("button", name="Menu")
    menu.focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    expect(visitor.nav("Assets")).to_be_focused()
    visitor.screenshot("phone_menu_open")
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    page.keyboard.press("Space")
    expect(menu).to_have_attribute("aria-expanded", "true")
    visitor.nav("Events").click()
    page.wait_for_url(re.compile(r"/events$"))
    expect(page.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "false")


def test_without_javascript_the_navigation_wraps_on_a_phone(
    browser: Browser, api: httpx.Client, live: LiveServer
) -> None:
    make_user(api, "no-script", "editor")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        visitor = Visitor(context.new_page(), Watch(), live.url)
        visitor.sign_in("no-script", PASSWORD)
        visitor.open("/assets")
        expect(visitor.page.get_by_role("button", name="Menu")).to_be_hidden()
        for name in MAIN_LINKS:
            expect(visitor.nav(name)).to_be_in_viewport(ratio=1)
        assert sideways(visitor.page) is None
        visitor.screenshot("phone_no_script_assets")
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/", "/assets", f"/assets/{ORDERS}"])
def test_a_desktop_keeps_its_one_line_navigation(
    visitor: Visitor, api: httpx.Client, path: str
) -> None:
    shop(api)
    make_user(api, "wide-screen", "editor")
    visitor.page.set_viewport_size(DESKTOP)
    visitor.sign_in("wide-screen")
    visitor.open(path)
    visitor.screenshot("desktop" + path.replace("/", "_"))
    expect(visitor.page.get_by_role("button", name="Menu")).to_be_hidden()
    boxes = [visitor.nav(name).bounding_box() for name in MAIN_LINKS]
    assert len({box["y"] for box in boxes if box}) == 1
