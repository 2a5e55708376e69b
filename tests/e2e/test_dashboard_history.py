"""The dashboard through time, in a real browser: the lineage graph as of a moment and
two moments compared, an asset's History tab, and the Ingest page's change-impact
check of a candidate manifest, which writes nothing."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Visitor
from tests.e2e.shared import (
    MANIFEST,
    MINUS,
    asset,
    edge,
    graph_state,
    lineage_rows,
    upload_manifest,
)
from tests.support.dashboard import make_user
from tests.support.history import moment

REVENUE = "model.quality_shop.customer_revenue"
REPORT = "bi.revenue_report"


def unlink(api: httpx.Client, source: str, target: str) -> None:
    answer = api.delete("/lineage/edges", params={"source": source, "target": target})
    assert answer.status_code == 204, answer.text


def as_local(instant: str) -> str:
    """An instant as the page's UTC date-time fields hold it: browsers keep a
    datetime-local value in its shortest form, so `05.080` reads back as `05.08`."""
    whole, _, fraction = instant.removesuffix("Z").partition(".")
    fraction = fraction.rstrip("0")
    if fraction:
        return f"{whole}.{fraction}"
    return whole.removesuffix(":00") if whole.count(":") == 2 else whole


def chain(api: httpx.Client) -> str:
    """raw -> stg -> mart, then stg -> mart deleted: the instant between the two."""
    for asset_id in ("raw.orders", "stg.orders", "mart.orders"):
        asset(api, asset_id)
    edge(api, "raw.orders", "stg.orders")
    edge(api, "stg.orders", "mart.orders")
    before = moment()
    unlink(api, "stg.orders", "mart.orders")
    return before


def test_as_of_a_moment_before_an_edge_was_deleted_the_graph_still_shows_it(
    visitor: Visitor, api: httpx.Client
) -> None:
    before = chain(api)
    make_user(api, "historian", "viewer")
    visitor.sign_in("historian")
    visitor.open("/lineage/stg.orders?depth=2")
    assert set(lineage_rows(visitor)) == {"raw.orders", "stg.orders"}
    expect(visitor.page.locator("[data-lineage-when]")).to_be_hidden()

    visitor.page.get_by_label("As of").fill(as_local(before))
    visitor.page.get_by_role("button", name="Show").click()
    visitor.page.wait_for_url(re.compile(r"as_of="))
    assert lineage_rows(visitor) == {
        "raw.orders": ("upstream", 1),
        "stg.orders": ("root", 0),
        "mart.orders": ("downstream", 1),
    }
    when = visitor.page.locator("[data-lineage-when]")
    expect(when).to_have_text(f"The graph as it stood at {before[:10]} {before[11:19]} UTC.")
    edges = visitor.page.get_by_test_id("lineage-edges")
    expect(edges.locator("tr[data-source='stg.orders'][data-target='mart.orders']")).to_have_count(
        1
    )
    expect(edges.locator("th[data-lineage-origins-col]")).to_have_text("Asserted now by")
    assert graph_state(visitor, "stg.orders\x01mart.orders")["drawn"]
    visitor.screenshot("lineage-as-of")

    # The address holds the moment: a reload draws the same past graph from the server.
    visitor.page.reload()
    assert "mart.orders" in lineage_rows(visitor)
    expect(visitor.page.get_by_label("As of")).to_have_value(as_local(before))

    visitor.page.get_by_role("link", name="Now").click()
    assert set(lineage_rows(visitor)) == {"raw.orders", "stg.orders"}
    expect(visitor.page.get_by_label("As of")).to_have_value("")
    assert "as_of" not in visitor.page.url
    visitor.page.go_back()
    assert "mart.orders" in lineage_rows(visitor)
    assert not visitor.watch.errors
    assert not visitor.watch.foreign_requests


def test_as_of_a_moment_before_the_asset_existed_says_so(
    visitor: Visitor, api: httpx.Client
) -> None:
    long_ago = moment()
    chain(api)
    make_user(api, "too-early", "viewer")
    visitor.sign_in("too-early")
    answer = visitor.page.goto(visitor.base + f"/lineage/stg.orders?as_of={long_ago}")
    assert answer is not None and answer.status == 200
    visitor.page.wait_for_selector("[data-lineage][data-lineage-ready='true']")
    expect(visitor.page.locator(".lineage-error")).to_contain_text(
        f"No asset with id 'stg.orders' at {long_ago}"
    )
    expect(visitor.page.get_by_test_id("lineage-nodes").locator("tbody tr")).to_have_count(0)
    expect(visitor.page.get_by_label("As of")).to_have_value(as_local(long_ago))
    visitor.screenshot("lineage-as-of-before-the-asset")
    refused = visitor.page.goto(visitor.base + "/lineage/stg.orders?as_of=last+tuesday")
    assert refused is not None and refused.status == 422
    expect(visitor.page.get_by_role("main")).to_contain_text("as_of must be a date and time")
    assert [e for e in visitor.watch.errors if "status of 422" not in e] == []


def test_comparing_two_moments_draws_added_and_removed_edges_apart(
    visitor: Visitor, api: httpx.Client
) -> None:
    before = chain(api)  # stg -> mart is gone since `before`
    asset(api, "mart.customers")
    edge(api, "stg.orders", "mart.customers")  # new since `before`
    make_user(api, "comparer", "viewer")
    visitor.sign_in("comparer")
    visitor.open("/lineage/stg.orders?depth=2")
    lineage_rows(visitor)
    legend = visitor.page.locator("[data-lineage-legend]")
    expect(legend).to_be_hidden()

    visitor.page.get_by_label("Compare with").fill(as_local(before))
    visitor.page.get_by_role("button", name="Show").click()
    visitor.page.wait_for_url(re.compile(r"compare="))
    assert set(lineage_rows(visitor)) == {
        "raw.orders",
        "stg.orders",
        "mart.orders",
        "mart.customers",
    }
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("+ Added (double border, solid bold edge): 1 asset, 1 edge")
    expect(legend).to_contain_text(f"{MINUS} Removed (dashed border, dashed edge): 1 asset, 1 edge")
    expect(visitor.page.locator("[data-lineage-when]")).to_contain_text(
        f"Changes between {before[:10]} {before[11:19]} UTC and "
    )

    edges = visitor.page.get_by_test_id("lineage-edges")
    expect(edges.locator("tr[data-target='mart.orders'] td").last).to_have_text(f"{MINUS} removed")
    expect(edges.locator("tr[data-target='mart.customers'] td").last).to_have_text("+ added")
    expect(edges.locator("tr[data-target='stg.orders'] td").last).to_have_text("—")
    nodes = visitor.page.get_by_test_id("lineage-nodes")
    expect(nodes.get_by_role("row").filter(has_text="mart.orders")).to_contain_text(
        f"{MINUS} removed"
    )
    expect(nodes.get_by_role("row").filter(has_text="mart.customers")).to_contain_text("+ added")

    removed = graph_state(visitor, "stg.orders\x01mart.orders")
    added = graph_state(visitor, "stg.orders\x01mart.customers")
    kept = graph_state(visitor, "raw.orders\x01stg.orders")
    assert removed["removed"] and not removed["added"] and removed["line"] == "dashed"
    assert added["added"] and not added["removed"] and added["line"] == "solid"
    assert len({removed["color"], added["color"], kept["color"]}) == 3
    assert graph_state(visitor, "mart.orders")["label"].startswith(f"{MINUS} ")
    assert graph_state(visitor, "mart.orders")["line"] == "dashed"
    assert graph_state(visitor, "mart.customers")["label"].startswith("+ ")
    assert graph_state(visitor, "mart.customers")["line"] == "double"
    visitor.screenshot("lineage-compare")
    assert visitor.accessibility_violations() == []
    assert not visitor.watch.errors


def test_the_history_tab_lists_a_patch_with_each_change(
    visitor: Visitor, api: httpx.Client
) -> None:
    columns = [{"name": "id", "type": "int"}, {"name": "amount", "type": "int"}]
    asset(api, "sales.orders", description="Orders as taken", owners=["sales"], columns=columns)
    patch = {
        "description": "Orders as shipped",
        "columns": [{"name": "id", "type": "bigint"}, {"name": "shipped_at", "type": "timestamp"}],
    }
    answer = api.patch(
        "/assets/sales.orders",
        content=json.dumps(patch),
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert answer.status_code == 200, answer.text
    make_user(api, "auditor-of-change", "viewer")
    visitor.sign_in("auditor-of-change")
    visitor.open("/assets/sales.orders")
    visitor.page.get_by_role("navigation", name="Asset").get_by_role("link", name="History").click()
    visitor.page.wait_for_url(re.compile(r"/assets/sales\.orders/history$"))

    rows = visitor.page.get_by_test_id("asset-history").locator("tbody > tr")
    expect(rows).to_have_count(2)
    newest = rows.first
    expect(newest.locator("td").first).to_have_text("2")
    expect(newest).to_contain_text("token:")
    changes = newest.locator("li.change")
    expect(changes.filter(has_text="description")).to_have_text(
        re.compile(r"description:\s*Orders as taken → Orders as shipped")
    )
    expect(changes.filter(has_text="column id")).to_have_text(
        re.compile(r"column id\s*retyped:\s*int → bigint")
    )
    expect(changes.filter(has_text="column shipped_at")).to_have_text(
        re.compile(r"column shipped_at\s*added:\s*timestamp")
    )
    expect(changes.filter(has_text="column amount")).to_have_text(
        re.compile(r"column amount\s*removed:\s*int")
    )
    oldest = rows.last
    expect(oldest.locator("td").first).to_have_text("1 created")
    expect(oldest.locator("li.change").filter(has_text="owners")).to_have_text("owners: sales")
    expect(oldest).not_to_contain_text("placeholder")
    visitor.screenshot("asset-history")
    assert visitor.accessibility_violations() == []

    with visitor.page.expect_download() as started:
        visitor.page.get_by_test_id("history-export-csv").click()
    download = started.value
    assert download.suggested_filename == "history-sales.orders.csv"
    rows_saved = list(csv.DictReader(io.StringIO(Path(download.path()).read_text())))
    assert ("2", "columns", "shipped_at", "added") in {
        (r["version"], r["field"], r["column"], r["change"]) for r in rows_saved
    }
    assert not visitor.watch.errors


def test_history_pages_go_back_to_the_first_version(visitor: Visitor, api: httpx.Client) -> None:
    asset(api, "busy.table")
    for n in range(22):
        answer = api.patch(
            "/assets/busy.table",
            content=json.dumps({"description": f"edit {n}"}),
            headers={"Content-Type": "application/merge-patch+json"},
        )
        assert answer.status_code == 200, answer.text
    make_user(api, "pager", "viewer")
    visitor.sign_in("pager")
    visitor.open("/assets/busy.table/history")
    rows = visitor.page.get_by_test_id("asset-history").locator("tbody > tr")
    expect(rows).to_have_count(20)
    expect(rows.first.locator("td").first).to_have_text("23")
    visitor.page.get_by_role("link", name="Older versions").click()
    expect(rows).to_have_count(3)
    expect(rows.first.locator("td").first).to_have_text("3")
    expect(rows.first).to_contain_text("edit 0 → edit 1")
    expect(rows.last.locator("td").first).to_have_text("1 created")
    expect(visitor.page.get_by_role("link", name="Older versions")).to_have_count(0)
    visitor.page.get_by_role("link", name="Newest versions").click()
    expect(rows.first.locator("td").first).to_have_text("23")


def candidate_manifest(tmp_path: Path) -> Path:
    """The project with `net_revenue` gone from customer_revenue (breaking) and a new
    column beside it (not breaking)."""
    manifest = copy.deepcopy(json.loads(MANIFEST.read_text()))
    columns = manifest["nodes"][REVENUE]["columns"]
    del columns["net_revenue"]
    columns["gross_revenue"] = {**columns["full_name"], "name": "gross_revenue"}
    path = tmp_path / "candidate manifest.json"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return path


def written(api: httpx.Client) -> dict[str, Any]:
    """What a write would change: the assets, the edges, the events."""
    return {
        "assets": api.get("/assets", params={"limit": 500}).json()["items"],
        "edges": api.get("/lineage/edges", params={"limit": 500}).json()["items"],
        "events": api.get("/events", params={"limit": 500}).json()["items"],
        "history": api.get(f"/assets/{REVENUE}/history").json()["items"],
    }


def test_check_impact_reports_a_breaking_change_and_who_reads_it_and_writes_nothing(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    upload_manifest(api)
    asset(api, REPORT, owners=["finance@example.com"], columns=[{"name": "revenue"}])
    edge(api, REVENUE, REPORT, columns=[{"source": "net_revenue", "target": "revenue"}])
    make_user(api, "gatekeeper", "editor")
    visitor.sign_in("gatekeeper")
    visitor.nav("Ingest").click()
    before = written(api)

    form = visitor.page.get_by_role("form", name="Ingest a dbt manifest")
    form.get_by_label("Manifest").set_input_files(str(candidate_manifest(tmp_path)))
    with visitor.page.expect_response(re.compile(r"/ui/impact/manifest$")) as answer:
        form.get_by_role("button", name="Check impact").click()
    assert answer.value.status == 200
    report = visitor.page.get_by_test_id("impact-report")
    expect(report).to_have_attribute("data-impact-ready", "true")
    expect(report.get_by_role("heading")).to_have_text(
        "Change impact of candidate manifest.json on quality_shop"
    )
    expect(report).to_contain_text("⚠ Breaking")
    expect(report).to_contain_text("Nothing was written.")

    changes = report.get_by_test_id("impact-changes").locator("tbody tr")
    removed = changes.filter(has_text="column_removed")
    expect(removed).to_have_count(1)
    expect(removed).to_contain_text(REVENUE)
    expect(removed).to_contain_text("net_revenue")
    expect(removed.locator("td").last).to_have_text("⚠ breaking")
    expect(removed).to_have_class("row-bad")
    added = changes.filter(has_text="column_added")
    expect(added).to_contain_text("gross_revenue")
    expect(added.locator("td").last).to_have_text("no")

    impacted = report.get_by_test_id("impact-impacted").locator("tbody tr")
    reader = impacted.filter(has_text=REPORT)
    expect(reader).to_have_count(1)
    cells = reader.locator("td")
    expect(cells.nth(1)).to_have_text("revenue")
    expect(cells.nth(2)).to_have_text("1")
    expect(cells.nth(3)).to_have_text("finance@example.com")
    expect(cells.nth(4)).to_have_text(f"{REVENUE}.net_revenue → {REPORT}.revenue")
    visitor.screenshot("ingest-impact")

    assert written(api) == before
    # The file stays chosen: Upload sends it as checked.
    assert form.get_by_label("Manifest").evaluate("input => input.files.length") == 1
    assert visitor.accessibility_violations() == []
    assert not visitor.watch.errors
    assert not visitor.watch.foreign_requests


def test_check_impact_without_a_file_or_for_an_unknown_project_says_why(
    visitor: Visitor, api: httpx.Client, tmp_path: Path
) -> None:
    make_user(api, "hasty", "editor")
    visitor.sign_in("hasty")
    visitor.open("/ingest")
    form = visitor.page.get_by_role("form", name="Ingest a dbt manifest")
    report = visitor.page.get_by_test_id("impact-report")
    form.get_by_role("button", name="Check impact").click()
    expect(report.get_by_role("alert")).to_have_text("Choose a manifest.json file to check.")

    form.get_by_label("Manifest").set_input_files(str(candidate_manifest(tmp_path)))
    with visitor.page.expect_response(re.compile(r"/ui/impact/manifest$")) as answer:
        form.get_by_role("button", name="Check impact").click()
    assert answer.value.status == 404
    expect(report.get_by_role("alert")).to_contain_text(
        "No upload of the dbt project 'quality_shop'"
    )
    assert api.get("/assets").json()["items"] == []
    assert [e for e in visitor.watch.errors if "status of 404" not in e] == []


def test_check_impact_refuses_a_post_without_the_pages_csrf_token(
    visitor: Visitor, api: httpx.Client
) -> None:
    upload_manifest(api)
    make_user(api, "forger-of-checks", "editor")
    visitor.sign_in("forger-of-checks")
    visitor.open("/ingest")
    status = visitor.page.evaluate(
        """async () => {
            const body = new FormData();
            body.append("file", new Blob(['{"nodes": {}}'], { type: "application/json" }), "m.json");
            const answer = await fetch("/ui/impact/manifest", { method: "POST", body });
            return [answer.status, (await answer.json()).code];
        }"""
    )
    assert status == [403, "csrf_refused"]
