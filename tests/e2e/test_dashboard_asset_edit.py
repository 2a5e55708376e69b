"""The asset page's edit form in the browser: it saves on the version it was shown, so a
change someone else made meanwhile is never undone silently (a 412 page says so, and
the page reloaded shows their change), and tags that would move the asset into a domain
where the user may not write are refused by name, nothing written."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Visitor
from tests.support.dashboard import make_user

MERGE_PATCH = {"content-type": "application/merge-patch+json"}


def _sales_editor(api: httpx.Client) -> None:
    """`sales` holds every id under `sales.` and the tag `sales`; `ops` the tag `ops`.
    The user `dina` (a global viewer) is an editor of sales only."""
    for team in ("sales", "sales-eds", "ops"):
        assert api.put(f"/teams/{team}", json={}).status_code == 201
    sales = {
        "owner_team": "sales",
        "rules": [{"kind": "namespace", "value": "sales."}, {"kind": "tag", "value": "sales"}],
        "grants": [{"team": "sales-eds", "role": "editor"}],
    }
    assert api.put("/domains/sales", json=sales).status_code == 201
    ops = {"owner_team": "ops", "rules": [{"kind": "tag", "value": "ops"}]}
    assert api.put("/domains/ops", json=ops).status_code == 201
    body = {"id": "orders", "name": "Orders", "type": "table", "tags": ["sales"]}
    assert api.post("/assets", json=body).status_code == 201
    dina = make_user(api, "dina", "viewer")
    assert api.put(f"/teams/sales-eds/members/{dina['id']}").status_code == 204


def _edit(visitor: Visitor, description: str | None = None, tags: str | None = None) -> None:
    visitor.page.get_by_text("Edit description and tags").click()
    if description is not None:
        visitor.page.get_by_label("Description").fill(description)
    if tags is not None:
        visitor.page.get_by_label("Tags (comma-separated)").fill(tags)
    visitor.page.get_by_role("button", name="Save").click()


def test_a_save_after_someone_elses_change_is_refused_and_says_so(
    visitor: Visitor, api: httpx.Client
) -> None:
    _sales_editor(api)
    visitor.sign_in("dina")
    visitor.open("/assets/orders")
    theirs = api.patch("/assets/orders", json={"description": "theirs"}, headers=MERGE_PATCH)
    assert theirs.status_code == 200, theirs.text
    _edit(visitor, description="mine")
    expect(visitor.page.locator(".status-code")).to_have_text("412")
    expect(visitor.page.get_by_text("Someone else changed orders")).to_be_visible()
    visitor.screenshot("asset-edit-changed-meanwhile")
    assert api.get("/assets/orders").json()["description"] == "theirs"

    visitor.page.get_by_test_id("error-onward").click()
    expect(visitor.page.locator(".description")).to_have_text("theirs")
    _edit(visitor, description="mine")
    expect(visitor.page.get_by_test_id("asset-saved")).to_be_visible()
    assert api.get("/assets/orders").json()["description"] == "mine"
    assert [e for e in visitor.watch.errors if "status of 412" not in e] == []


def test_tags_that_would_move_the_asset_out_of_the_users_domain_are_refused(
    visitor: Visitor, api: httpx.Client
) -> None:
    _sales_editor(api)
    before = api.get("/assets/orders").json()
    visitor.sign_in("dina")
    visitor.open("/assets/orders")
    _edit(visitor, tags="ops")
    expect(visitor.page.locator(".status-code")).to_have_text("403")
    expect(visitor.page.get_by_text("into the domain ops")).to_be_visible()
    assert api.get("/assets/orders").json() == before
