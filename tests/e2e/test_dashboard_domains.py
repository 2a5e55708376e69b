"""Domains in the browser: a private domain's assets drawn as stand-ins in the lineage
graph (the path whole, no name of theirs anywhere on the page), and a dbt upload on the
Ingest page refused for an editor outside the domain, naming the assets and writing
nothing."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Visitor
from tests.e2e.shared import HIDDEN, MANIFEST, lineage_rows, private_finance
from tests.support.dashboard import make_user


def test_a_private_asset_is_a_stand_in_in_the_graph_and_the_path_stays_whole(
    visitor: Visitor, api: httpx.Client
) -> None:
    private_finance(api)
    make_user(api, "outsider", "editor")
    visitor.sign_in("outsider")
    visitor.open("/lineage/shop.raw?depth=3")
    rows = lineage_rows(visitor)
    assert set(rows) == {"shop.raw", "redacted:1", "shop.dash"}
    assert rows["shop.dash"][1] == 2  # two hops: the path runs through the stand-in
    stand_in = visitor.page.locator("[data-testid='lineage-nodes'] tbody tr", has_text="redacted:1")
    expect(stand_in).to_contain_text("Hidden · finance-team")
    expect(stand_in.locator("a")).to_have_count(0)  # it leads nowhere
    page_text = visitor.page.content()
    assert not [word for word in HIDDEN if word in page_text]
    visitor.screenshot("lineage-redacted")
    visitor.open("/assets/fin.ledger")
    expect(visitor.page.locator(".status-code")).to_have_text("404")
    assert [e for e in visitor.watch.errors if "status of 404" not in e] == []


def test_an_upload_touching_another_domains_models_is_refused_and_writes_nothing(
    visitor: Visitor, api: httpx.Client
) -> None:
    assert api.put("/teams/analytics", json={}).status_code == 201
    domain = {"owner_team": "analytics", "rules": [{"kind": "namespace", "value": "model."}]}
    assert api.put("/domains/analytics", json=domain).status_code == 201
    before = api.get("/assets", params={"limit": 500}).json()["items"]
    make_user(api, "stranger", "editor")
    visitor.sign_in("stranger")
    visitor.nav("Ingest").click()
    visitor.page.get_by_label("Manifest", exact=True).set_input_files(str(MANIFEST))
    visitor.page.get_by_role("button", name="Upload").click()
    expect(visitor.page.locator(".status-code")).to_have_text("403")
    alert = visitor.page.get_by_role("alert")
    expect(alert).to_contain_text("lie where this caller may not write")
    expect(alert).to_contain_text("model.quality_shop.")
    visitor.screenshot("ingest-refused-by-domain")
    assert api.get("/assets", params={"limit": 500}).json()["items"] == before
