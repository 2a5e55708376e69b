"""The compared lineage view in the browser, for a reader outside a private domain: an
asset of it added or removed between the two moments is drawn as 'Hidden · <team>' with
its change mark, and nothing of it is on the page."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Visitor
from tests.e2e.shared import HIDDEN, MINUS, asset, edge, graph_state, lineage_rows, private_finance
from tests.support.dashboard import make_user
from tests.support.history import moment


def test_a_hidden_asset_added_between_two_moments_is_a_marked_stand_in(
    visitor: Visitor, api: httpx.Client
) -> None:
    private_finance(api)  # shop.raw -> fin.ledger -> shop.dash
    before = moment()
    asset(api, "fin.payroll", name="Payroll run")
    edge(api, "shop.raw", "fin.payroll")
    answer = api.delete("/lineage/edges", params={"source": "fin.ledger", "target": "shop.dash"})
    assert answer.status_code == 204
    make_user(api, "outsider", "viewer")
    visitor.sign_in("outsider")

    visitor.open(f"/lineage/shop.raw?depth=3&compare={before}")
    rows = lineage_rows(visitor)
    assert set(rows) == {"shop.raw", "redacted:1", "redacted:2", "shop.dash"}
    nodes = visitor.page.get_by_test_id("lineage-nodes")
    added = nodes.get_by_role("row").filter(has_text="+ added")
    expect(added).to_contain_text("Hidden · finance-team")
    expect(added.locator("a")).to_have_count(0)
    expect(nodes.get_by_role("row").filter(has_text="shop.dash")).to_contain_text(
        f"{MINUS} removed"
    )
    stand_in = added.locator("code").inner_text()
    assert graph_state(visitor, stand_in)["label"].startswith("+ Hidden · finance-team")
    page_text = visitor.page.content()
    assert not [w for w in (*HIDDEN, "fin.payroll", "Payroll run") if w in page_text]
    visitor.screenshot("lineage-compare-redacted")
    assert not visitor.watch.errors


def test_a_column_of_a_hidden_asset_is_a_stand_in_on_either_side(
    visitor: Visitor, api: httpx.Client
) -> None:
    private_finance(api)
    asset(api, "shop.mid", columns=[{"name": "id"}])
    asset(api, "fin.src", name="Salary source")
    asset(api, "fin.out", name="Bonus sheet")
    for source, target, pair in (
        ("fin.src", "shop.mid", ("salary", "id")),
        ("shop.mid", "fin.out", ("id", "bonus")),
        ("shop.mid", "shop.dash", ("id", "total")),
    ):
        edge(api, source, target, columns=[{"source": pair[0], "target": pair[1]}])
    make_user(api, "outsider", "viewer")
    visitor.sign_in("outsider")
    visitor.open("/lineage/shop.mid?depth=3")
    lineage_rows(visitor)
    visitor.page.get_by_label("Column").select_option("id")
    visitor.page.get_by_role("button", name="Show").click()
    status = visitor.page.locator("[data-lineage-status]")
    # each side numbers its own stand-ins: two hidden assets, two rows
    expect(status).to_have_text("columns of 4 assets, 3 edges")
    rows = visitor.page.get_by_test_id("lineage-nodes").get_by_role("row")
    hidden = rows.filter(has_text="Hidden · finance-team")
    expect(hidden).to_have_count(2)
    expect(hidden.locator("a")).to_have_count(0)
    page_text = visitor.page.content()
    secrets = ("fin.src", "fin.out", "Salary source", "Bonus sheet", "salary", "bonus")
    assert not [w for w in secrets if w in page_text]
    visitor.screenshot("lineage-column-redacted")
    assert not visitor.watch.errors
