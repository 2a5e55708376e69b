"""The dashboard in a real browser: sign-in, the token flow, roles, search to lineage,
live events, manifest and SQL upload, datasets and edge origins across tools; no
foreign requests, no errors, no serious axe findings."""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import client_for
from tests.e2e.conftest import Visitor
from tests.e2e.shared import MANIFEST, REVENUE_SQL, lineage_rows, upload_manifest
from tests.support.dashboard import make_user
from tests.support.dbt_fixtures import manifest_path
from tests.support.server import LiveServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality"
FAILING_RUN = FIXTURES / "run_results_failing.json"
ORDERS = "model.quality_shop.orders"


def break_things(api: httpx.Client) -> None:
    """Failing dbt tests and a violated policy, so the pages show alerts and violations."""
    upload_manifest(api)
    failing = api.post(
        "/quality/results/dbt",
        content=FAILING_RUN.read_bytes(),
        headers={"Content-Type": "application/json"},
    )
    assert failing.status_code in (200, 201), failing.text
    policy = {
        "name": "Models have owners",
        "kind": "require_owner",
        "severity": "high",
        "selector": {"type": "model"},
    }
    assert api.post("/policies", json=policy).status_code == 201
    assert api.post("/policies/evaluate").status_code == 200


def expected_lineage(root: str, depth: int) -> dict[str, tuple[str, int]]:
    """Asset id -> (direction, distance), by breadth-first search over the manifest's own
    `depends_on`, so the expectation does not come from the code under test."""
    nodes = json.loads(MANIFEST.read_text())["nodes"]
    parents = {
        k: v.get("depends_on", {}).get("nodes", [])
        for k, v in nodes.items()
        if v["resource_type"] != "test"
    }
    children: dict[str, list[str]] = {}
    for child, ps in parents.items():
        for parent in ps:
            children.setdefault(parent, []).append(child)
    found = {root: ("root", 0)}
    for direction, step in (("upstream", parents), ("downstream", children)):
        queue = deque([(root, 0)])
        seen = {root}
        while queue:
            node, distance = queue.popleft()
            if distance == depth:
                continue
            for nxt in step.get(node, []):
                if nxt not in seen:
                    seen.add(nxt)
                    found.setdefault(nxt, (direction, distance + 1))
                    queue.append((nxt, distance + 1))
    return found


def test_a_signed_out_visitor_is_sent_to_sign_in(visitor: Visitor, clean: None) -> None:
    page = visitor.open("/assets?q=orders")
    assert page.url.endswith("/login?next=%2Fassets%3Fq%3Dorders")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    visitor.screenshot("login")


def test_wrong_credentials_get_the_same_words_whether_or_not_the_user_exists(
    visitor: Visitor, api: httpx.Client
) -> None:
    make_user(api, "wrong-pass", "viewer")
    for username in ("wrong-pass", "nobody-by-this-name"):
        visitor.open("/login")
        visitor.page.get_by_label("Username").fill(username)
        visitor.page.get_by_label("Password").fill("not-the-password")
        visitor.page.get_by_role("button", name="Sign in").click()
        expect(visitor.page.get_by_role("alert")).to_have_text("Invalid username or password.")
        assert not any(c["name"].endswith("gov_session") for c in visitor.page.context.cookies())
    visitor.screenshot("login-wrong-password")


def test_a_new_user_makes_a_token_uses_it_and_revokes_it(
    visitor: Visitor, api: httpx.Client, live: LiveServer
) -> None:
    user = make_user(api, "seed-admin", "admin")
    visitor.sign_in("seed-admin")
    session = next(c for c in visitor.page.context.cookies() if c["name"] == "gov_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    visitor.nav("Settings").click()
    expect(visitor.page.get_by_role("heading", name="API Tokens")).to_be_visible()
    visitor.page.get_by_label("Name").fill("first-curl")
    visitor.page.get_by_label("Scope").select_option("write")
    visitor.page.get_by_label("Expires in days").fill("30")
    visitor.page.get_by_role("button", name="Create token").click()
    secret = visitor.page.get_by_test_id("new-token").inner_text().strip()
    assert re.fullmatch(r"dgs_[0-9A-Za-z]{42}", secret)
    visitor.screenshot("settings-tokens-created")

    with client_for(live, secret) as mine:
        me = mine.get("/me")
        assert me.status_code == 200
        assert me.json()["user"]["id"] == user["id"]
        assert me.json()["token"]["scopes"] == ["write"]
        visitor.open("/settings/tokens")
        assert secret not in visitor.page.content()
        row = visitor.page.get_by_role("row").filter(has_text="first-curl")
        expect(row).to_contain_text(secret[:8])
        visitor.page.once("dialog", lambda dialog: dialog.accept())
        row.get_by_role("button", name="Revoke").click()
        expect(visitor.page.get_by_role("status")).to_have_text("Token revoked.")
        assert mine.get("/me").status_code == 401


def test_the_scope_choice_follows_the_role_and_a_demotion_caps_existing_tokens(
    visitor: Visitor, api: httpx.Client, live: LiveServer
) -> None:
    editor = make_user(api, "an-editor", "editor")
    visitor.sign_in("an-editor")
    visitor.open("/settings/tokens")
    options = visitor.page.get_by_label("Scope").locator("option").all_inner_texts()
    assert options == ["read", "write"]
    visitor.page.get_by_label("Name").fill("loader")
    visitor.page.get_by_label("Scope").select_option("write")
    visitor.page.get_by_role("button", name="Create token").click()
    secret = visitor.page.get_by_test_id("new-token").inner_text().strip()
    asset = {"id": "demo.table", "name": "demo", "type": "table"}
    with client_for(live, secret) as mine:
        assert mine.post("/assets", json=asset).status_code == 201
        assert api.patch(f"/users/{editor['id']}", json={"role": "viewer"}).status_code == 200
        refused = mine.put("/assets/demo.table", json=asset)
        assert refused.status_code == 403
        assert refused.json()["code"] == "insufficient_scope"
        assert mine.get("/assets/demo.table").status_code == 200
    visitor.open("/settings/tokens")
    assert visitor.page.get_by_label("Scope").locator("option").all_inner_texts() == ["read"]
    visitor.open("/settings/users")
    expect(visitor.page.get_by_role("heading", name="Not allowed")).to_be_visible()


def test_search_leads_to_the_asset_and_its_lineage_graph(
    visitor: Visitor, api: httpx.Client
) -> None:
    upload_manifest(api)
    make_user(api, "explorer", "viewer")
    visitor.sign_in("explorer")
    visitor.nav("Assets").click()
    visitor.page.get_by_label("Search").fill("orders")
    visitor.page.get_by_role("button", name="Search").click()
    visitor.page.get_by_role("link", name="orders", exact=True).click()
    expect(visitor.page.get_by_role("heading", name="orders", exact=True)).to_be_visible()
    expect(visitor.page.get_by_role("heading", name="Quality rules")).to_be_visible()
    assert lineage_rows(visitor) == expected_lineage(ORDERS, 1)
    visitor.screenshot("asset")

    visitor.page.get_by_role("link", name="Open lineage graph").click()
    assert lineage_rows(visitor) == expected_lineage(ORDERS, 5)
    visitor.screenshot("lineage")
    visitor.page.get_by_label("Depth").fill("1")
    visitor.page.get_by_role("button", name="Show").click()
    visitor.page.wait_for_url(re.compile(r"depth=1"))
    assert lineage_rows(visitor) == expected_lineage(ORDERS, 1)

    stg = "model.quality_shop.stg_orders"
    visitor.page.locator("[data-testid='lineage-nodes']").get_by_role(
        "link", name="stg_orders"
    ).click()
    visitor.page.wait_for_url(re.compile("stg_orders"))
    assert lineage_rows(visitor) == expected_lineage(stg, 1)
    expect(visitor.page.locator("[data-lineage-title]")).to_have_text("stg_orders")
    assert not visitor.watch.errors
    assert not visitor.watch.foreign_requests


def push_column_lineage(api: httpx.Client) -> None:
    """raw.orders -> stg.orders -> mart.revenue, and stg.orders -> mart.other, where only
    `amount` reaches mart.other: the column view of order_id must leave it out."""
    columns = {
        "raw.orders": ["id", "amount"],
        "stg.orders": ["order_id", "amount"],
        "mart.revenue": ["order_id", "total"],
        "mart.other": ["x"],
    }
    for asset_id, names in columns.items():
        body = {
            "id": asset_id,
            "name": asset_id.replace(".", "_"),
            "type": "table",
            "columns": [{"name": n} for n in names],
        }
        assert api.post("/assets", json=body).status_code == 201
    edges = [
        ("raw.orders", "stg.orders", [("id", "order_id"), ("amount", "amount")]),
        ("stg.orders", "mart.revenue", [("order_id", "order_id"), ("amount", "total")]),
        ("stg.orders", "mart.other", [("amount", "x")]),
    ]
    for source, target, pairs in edges:
        edge = {
            "source": source,
            "target": target,
            "columns": [{"source": s, "target": t} for s, t in pairs],
        }
        assert api.post("/lineage", json=edge).status_code == 201


def test_the_graph_follows_one_column_when_a_column_is_chosen(
    visitor: Visitor, api: httpx.Client
) -> None:
    push_column_lineage(api)
    make_user(api, "column-reader", "viewer")
    visitor.sign_in("column-reader")
    visitor.open("/lineage/stg.orders?depth=3")
    assert set(lineage_rows(visitor)) == {"raw.orders", "stg.orders", "mart.revenue", "mart.other"}
    visitor.page.get_by_label("Column").select_option("order_id")
    visitor.page.get_by_role("button", name="Show").click()
    status = visitor.page.locator("[data-lineage-status]")
    expect(status).to_have_text(re.compile(r"^columns of"))
    assert lineage_rows(visitor) == {
        "stg.orders": ("root", 0),
        "raw.orders": ("upstream", 1),
        "mart.revenue": ("downstream", 1),
    }
    expect(status).to_have_text("columns of 3 assets, 2 edges")
    table = visitor.page.locator("[data-testid='lineage-nodes']")
    expect(table.get_by_role("row").filter(has_text="raw.orders")).to_contain_text("column id")
    visitor.screenshot("lineage-column")
    assert not visitor.watch.errors


def test_pointing_at_an_asset_in_the_table_highlights_its_path(
    visitor: Visitor, api: httpx.Client
) -> None:
    push_column_lineage(api)
    make_user(api, "path-finder", "viewer")
    visitor.sign_in("path-finder")
    visitor.open("/lineage/raw.orders?depth=3")
    lineage_rows(visitor)
    table = visitor.page.locator("[data-testid='lineage-nodes']")
    path = visitor.page.locator("[data-lineage-path]")
    table.get_by_role("link", name="mart_revenue").hover()
    expect(path).to_have_text("Path: raw_orders → stg_orders → mart_revenue")
    visitor.screenshot("lineage-path")
    visitor.page.keyboard.press("Escape")
    expect(path).to_have_text("")
    visitor.page.mouse.move(0, 0)  # keyboard only from here on
    table.get_by_role("link", name="mart_other").focus()
    expect(path).to_have_text("Path: raw_orders → stg_orders → mart_other")


def test_a_form_with_a_forged_csrf_token_is_refused_and_changes_nothing(
    visitor: Visitor, api: httpx.Client
) -> None:
    make_user(api, "forger", "editor")
    visitor.sign_in("forger")
    visitor.open("/settings/tokens")
    before = len(api.get("/tokens", params={"limit": 500}).json()["items"])
    create = visitor.page.locator("form").filter(
        has=visitor.page.get_by_role("button", name="Create token")
    )
    create.locator("input[name='csrf_token']").evaluate("field => { field.value = 'forged' }")
    visitor.page.get_by_label("Name").fill("never-made")
    with visitor.page.expect_response(lambda r: r.request.method == "POST") as posted:
        visitor.page.get_by_role("button", name="Create token").click()
    assert posted.value.status == 403
    expect(visitor.page.get_by_role("alert")).to_contain_text("did not come from this site")
    assert len(api.get("/tokens", params={"limit": 500}).json()["items"]) == before


def test_an_admin_resetting_a_password_ends_that_users_open_session(
    visitor: Visitor, api: httpx.Client, browser: Browser
) -> None:
    make_user(api, "reset-admin", "admin")
    make_user(api, "forgetful", "viewer")
    visitor.sign_in("forgetful")
    visitor.open("/assets")
    expect(visitor.page.get_by_role("heading", name="Assets")).to_be_visible()

    admin_context = browser.new_context()
    try:
        admin = Visitor(admin_context.new_page(), visitor.watch, visitor.base)
        admin.sign_in("reset-admin")
        admin.open("/settings/users")
        admin.page.get_by_label("New password for forgetful").fill("a-brand-new-password")
        admin.page.get_by_role("button", name="Reset password of forgetful").click()
        expect(admin.page.get_by_role("status")).to_contain_text("forgetful")
    finally:
        admin_context.close()

    visitor.open("/assets")
    assert "/login?next=%2Fassets" in visitor.page.url
    visitor.sign_in("forgetful", "a-brand-new-password")
    expect(visitor.page.get_by_role("button", name="Sign out")).to_be_visible()


def test_the_event_feed_shows_new_events_live(visitor: Visitor, api: httpx.Client) -> None:
    make_user(api, "watcher", "viewer")
    visitor.sign_in("watcher")
    visitor.open("/events")
    # A viewer sees no token or audit events, so the feed may start empty (and an
    # empty list has no box to be visible): wait for it to be listening, not shown.
    visitor.page.wait_for_selector(
        "[data-event-feed][data-event-feed-ready='true']", state="attached"
    )
    asset = {"id": "live.events.asset", "name": "live", "type": "table"}
    assert api.post("/assets", json=asset).status_code == 201
    newest = visitor.page.locator("[data-event-feed] li").first
    expect(newest).to_contain_text("asset.created")
    expect(newest).to_contain_text("live.events.asset")
    visitor.screenshot("events")


def test_an_editor_uploads_a_manifest_and_sees_the_summary(
    visitor: Visitor, api: httpx.Client
) -> None:
    make_user(api, "uploader", "editor")
    visitor.sign_in("uploader")
    visitor.nav("Ingest").click()
    visitor.page.get_by_label("Manifest", exact=True).set_input_files(str(MANIFEST))
    visitor.page.get_by_role("button", name="Upload").click()
    summary = visitor.page.get_by_test_id("ingest-summary")
    expect(summary).to_contain_text("quality_shop")
    assets = api.get("/assets", params={"limit": 500}).json()["items"]
    assert ORDERS in {a["id"] for a in assets}
    visitor.screenshot("ingest")


WAREHOUSE = "duckdb://warehouse"
CORNER_ORDERS = "model.corner_shop.orders"
REVENUE = "corner_shop.reporting.revenue"
REVENUE_PLACEHOLDER = f"{WAREHOUSE}/{REVENUE}"  # the id of the asset made for the dataset


def ingest_corner_shop_and_sql(visitor: Visitor, sql_file: Path) -> None:
    """Our dbt project with its warehouse's namespace, then a SQL file reading its
    `orders` model, both through the Ingest page."""
    visitor.nav("Ingest").click()
    manifest = visitor.page.get_by_role("form", name="Ingest a dbt manifest")
    manifest.get_by_label("Manifest").set_input_files(str(manifest_path("v12")))
    manifest.get_by_label("Namespace").fill(WAREHOUSE)
    manifest.get_by_role("button", name="Upload").click()
    expect(visitor.page.get_by_test_id("ingest-summary")).to_contain_text("corner_shop")
    sql = visitor.page.get_by_role("form", name="Ingest SQL")
    sql.get_by_label("SQL file").set_input_files(str(sql_file))
    sql.get_by_label("Dialect").select_option("duckdb")
    sql.get_by_label("Namespace").fill(WAREHOUSE)
    sql.get_by_label("Default database").fill("corner_shop")
    sql.get_by_role("button", name="Ingest SQL").click()


def hover_graph(visitor: Visitor, element: str) -> None:
    """The pointer on a drawn node, or the middle of a drawn edge (`source\\x01target`):
    the graph is a canvas, with no DOM element per node; cytoscape keeps its instance
    on the container."""
    x, y = visitor.page.evaluate(
        """(id) => {
            const canvas = document.querySelector("[data-lineage-canvas]");
            const element = canvas._cyreg.cy.getElementById(id);
            const at = element.isEdge() ? element.renderedMidpoint() : element.renderedPosition();
            const box = canvas.getBoundingClientRect();
            return [box.left + at.x, box.top + at.y];
        }""",
        element,
    )
    visitor.page.mouse.move(x, y)


def unexpected(errors: list[str]) -> list[str]:
    """Console errors besides Chromium's note of a page answered 422 (a refused form)."""
    return [e for e in errors if "status of 422" not in e]


def test_sql_uploaded_on_the_ingest_page_shows_as_lineage_with_its_writer_and_datasets(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    make_user(api, "sql-loader", "editor")
    visitor.sign_in("sql-loader")
    sql_file = tmp_path / "q3 revenue.sql"
    sql_file.write_text(REVENUE_SQL, encoding="utf-8")
    ingest_corner_shop_and_sql(visitor, sql_file)
    summary = visitor.page.get_by_test_id("sql-summary")
    expect(summary).to_contain_text("Ingested q3 revenue.sql")
    expect(summary).to_contain_text("sql:q3-revenue")
    expect(summary).to_contain_text("2 received: 1 with lineage, 0 without, 1 failed")
    expect(summary).to_contain_text("Edges1 created, 0 existing")
    expect(summary).to_contain_text("Placeholders1 made")
    failure = summary.get_by_test_id("sql-failures").locator("tbody tr")
    expect(failure).to_have_count(1)
    expect(failure.locator("td").first).to_have_text("1")
    expect(failure).to_contain_text("Expected table name")
    visitor.screenshot("ingest-sql")

    visitor.open(f"/lineage/{CORNER_ORDERS}?depth=1")
    lineage_rows(visitor)
    nodes = visitor.page.get_by_test_id("lineage-nodes")
    revenue = nodes.get_by_role("row").filter(has_text=REVENUE_PLACEHOLDER)
    expect(revenue.locator("td").nth(3)).to_have_text(f"{REVENUE}{WAREHOUSE}")
    orders = nodes.get_by_role("row").filter(
        has=visitor.page.locator(f"code:text-is('{CORNER_ORDERS}')")
    )
    expect(orders.locator("td").nth(3)).to_have_text(f"corner_shop.main_marts.orders{WAREHOUSE}")
    edges = visitor.page.get_by_test_id("lineage-edges")
    to_revenue = edges.locator(
        f"tr[data-source='{CORNER_ORDERS}'][data-target='{REVENUE_PLACEHOLDER}']"
    )
    expect(to_revenue.locator("td").nth(2)).to_have_text("sql:q3-revenue")
    from_staging = edges.locator(
        f"tr[data-source='model.corner_shop.stg_orders'][data-target='{CORNER_ORDERS}']"
    )
    expect(from_staging.locator("td").nth(2)).to_have_text("dbt:corner_shop")

    tip = visitor.page.locator("[data-lineage-tip]")
    hover_graph(visitor, REVENUE_PLACEHOLDER)
    expect(tip).to_contain_text(f"Dataset {REVENUE}")
    expect(tip).to_contain_text(f"Namespace {WAREHOUSE}")
    visitor.screenshot("lineage-node-dataset")
    hover_graph(visitor, f"{CORNER_ORDERS}\x01{REVENUE_PLACEHOLDER}")
    expect(tip).to_contain_text("orders → revenue")
    expect(tip).to_contain_text("Asserted by sql:q3-revenue")
    visitor.screenshot("lineage-edge-origins")
    visitor.page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    to_revenue.hover()
    expect(visitor.page.locator("[data-lineage-path]")).to_have_text(
        "Edge: orders → revenue, asserted by sql:q3-revenue"
    )
    assert not visitor.watch.errors
    assert not visitor.watch.foreign_requests


def test_an_asset_shows_its_dataset_and_a_namespace_lists_its_assets(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    make_user(api, "dataset-reader", "editor")
    visitor.sign_in("dataset-reader")
    sql_file = tmp_path / "revenue.sql"
    sql_file.write_text(REVENUE_SQL, encoding="utf-8")
    ingest_corner_shop_and_sql(visitor, sql_file)
    expect(visitor.page.get_by_test_id("sql-summary")).to_contain_text("1 failed")

    visitor.open(f"/assets/{CORNER_ORDERS}")
    dataset = visitor.page.get_by_test_id("asset-dataset")
    expect(dataset.locator("code")).to_have_text("corner_shop.main_marts.orders")
    visitor.screenshot("asset-dataset")
    dataset.get_by_role("link", name=WAREHOUSE).click()
    expect(visitor.page.get_by_label("Dataset namespace")).to_have_value(WAREHOUSE)
    listed = visitor.page.get_by_role("table", name="Assets").locator("tbody tr")
    expect(listed.filter(has_text=REVENUE_PLACEHOLDER)).to_contain_text(REVENUE)
    expect(listed.filter(has_text=CORNER_ORDERS)).to_contain_text("corner_shop.main_marts.orders")
    assert listed.count() > 2

    # Any spelling of a dataset finds its holder: duckdb folds the name's case.
    visitor.page.get_by_label("Dataset namespace").fill("DUCKDB://warehouse/")
    visitor.page.get_by_label("Dataset name", exact=True).fill("Corner_Shop.MAIN_MARTS.Orders")
    visitor.page.get_by_role("button", name="Search").click()
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text(CORNER_ORDERS)
    visitor.screenshot("assets-by-dataset")

    visitor.page.get_by_label("Dataset namespace").fill("")
    visitor.page.get_by_role("button", name="Search").click()
    expect(visitor.page.get_by_role("alert")).to_have_text(
        "A dataset name needs its dataset namespace (e.g. snowflake://acme-prod)."
    )
    answer = visitor.page.goto(visitor.base + "/assets?dataset_namespace=%3A%2F%2Fwarehouse")
    assert answer is not None and answer.status == 422
    expect(visitor.page.get_by_role("alert")).to_contain_text("Dataset namespace: ")
    expect(visitor.page.get_by_label("Dataset namespace")).to_have_value("://warehouse")
    assert unexpected(visitor.watch.errors) == []


def test_an_asset_merged_into_another_is_found_by_its_former_id(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    make_user(api, "merger", "editor")
    visitor.sign_in("merger")
    sql_file = tmp_path / "revenue.sql"
    sql_file.write_text(REVENUE_SQL, encoding="utf-8")
    ingest_corner_shop_and_sql(visitor, sql_file)
    expect(visitor.page.get_by_test_id("sql-summary")).to_contain_text("1 made")
    holder = {
        "id": "reporting.revenue",
        "name": "revenue report",
        "type": "table",
        "dataset": {"namespace": WAREHOUSE, "name": REVENUE},
    }
    assert api.post("/assets", json=holder).status_code == 201

    visitor.open(f"/assets/{quote(REVENUE_PLACEHOLDER, safe='')}")
    expect(visitor.page.get_by_role("heading", name="revenue report", level=1)).to_be_visible()
    expect(visitor.page.get_by_test_id("former-id")).to_contain_text(
        f"You followed the former id {REVENUE_PLACEHOLDER}"
    )
    expect(visitor.page.get_by_test_id("asset-aliases")).to_have_text(REVENUE_PLACEHOLDER)
    dataset = visitor.page.get_by_test_id("asset-dataset")
    expect(dataset.locator("code")).to_have_text(REVENUE)
    expect(dataset.get_by_role("link")).to_have_text(WAREHOUSE)
    lineage_rows(visitor)
    edges = visitor.page.get_by_test_id("lineage-edges")
    expect(edges.locator("tr[data-target='reporting.revenue']")).to_contain_text("sql:revenue")
    visitor.screenshot("asset-former-id")
    assert not visitor.watch.errors


def test_a_sql_upload_the_service_refuses_says_why_beside_the_form(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    make_user(api, "sql-typo", "editor")
    visitor.sign_in("sql-typo")
    visitor.open("/ingest")
    sql = visitor.page.get_by_role("form", name="Ingest SQL")
    sql_file = tmp_path / "nightly.sql"
    sql_file.write_text(REVENUE_SQL, encoding="utf-8")
    sql.get_by_label("SQL file").set_input_files(str(sql_file))
    sql.get_by_label("Dialect").select_option("postgres")
    sql.get_by_label("Namespace").fill("://warehouse")
    sql.get_by_label("Default schema").fill("public")
    with visitor.page.expect_response(re.compile(r"/ingest/sql$")) as answer:
        sql.get_by_role("button", name="Ingest SQL").click()
    assert answer.value.status == 422
    sql = visitor.page.get_by_role("form", name="Ingest SQL")
    expect(sql.get_by_role("alert")).to_contain_text("Namespace: must start with a scheme")
    expect(sql.get_by_label("Namespace")).to_have_value("://warehouse")
    expect(sql.get_by_label("Dialect")).to_have_value("postgres")
    expect(sql.get_by_label("Default schema")).to_have_value("public")
    visitor.screenshot("ingest-sql-refused")

    empty = tmp_path / "empty.sql"
    empty.write_text("  \n", encoding="utf-8")
    sql.get_by_label("SQL file").set_input_files(str(empty))
    sql.get_by_label("Namespace").fill(WAREHOUSE)
    sql.get_by_role("button", name="Ingest SQL").click()
    expect(visitor.page.get_by_role("alert")).to_contain_text("SQL file: holds no SQL")
    assert api.get("/lineage/edges").json()["items"] == []
    assert unexpected(visitor.watch.errors) == []


def test_signing_out_ends_the_session_on_the_server(visitor: Visitor, api: httpx.Client) -> None:
    make_user(api, "leaver", "viewer")
    visitor.sign_in("leaver")
    cookie = next(c for c in visitor.page.context.cookies() if c["name"] == "gov_session")
    visitor.page.get_by_role("button", name="Sign out").click()
    visitor.page.wait_for_url(re.compile(r"/login"))
    replay = httpx.get(
        visitor.base + "/", cookies={"gov_session": cookie["value"]}, follow_redirects=False
    )
    assert replay.status_code == 303


PAGES = (
    "/",
    "/assets",
    f"/assets/{ORDERS}",
    f"/assets/{ORDERS}/history",
    "/lineage",
    f"/lineage/{ORDERS}",
    "/policies",
    "/quality",
    "/events",
    "/ingest",
    "/settings/tokens",
    "/settings/users",
)


def test_the_watch_sees_a_request_for_another_host_and_it_fails(visitor: Visitor) -> None:
    """What "self-contained" below rests on: a page's request for another host is
    recorded, and does not load (on a page of its own: the dashboard's content security
    policy would refuse the request before it is made)."""
    foreign = "https://cdn.example.com/logo.png"
    visitor.page.set_content(f'<img alt="logo" src="{foreign}">', wait_until="load")
    assert visitor.watch.foreign_requests == [foreign]
    assert visitor.page.evaluate("document.images[0].complete && !document.images[0].naturalWidth")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_accessible_self_contained_and_error_free(
    visitor: Visitor, api: httpx.Client, path: str
) -> None:
    break_things(api)
    make_user(api, "auditor", "admin")
    visitor.sign_in("auditor")
    visitor.open(path)
    if "/lineage/" in path:
        visitor.page.wait_for_selector("[data-lineage][data-lineage-ready='true']")
    expect(visitor.page.get_by_role("button", name="Sign out")).to_be_visible()
    for link in ("Assets", "Lineage", "Policies", "Quality", "Events", "Settings"):
        expect(visitor.nav(link)).to_be_visible()
    assert visitor.accessibility_violations() == []
    assert visitor.watch.errors == []
    assert visitor.watch.foreign_requests == []
    visitor.screenshot("page" + path.replace("/", "_"))
