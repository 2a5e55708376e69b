"""Column classification on the asset page, in a real browser: a column's own tags
beside the tags it inherited, drawn apart, each with a "why?" that lists the path."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Visitor
from tests.support.dashboard import make_user


def test_an_inherited_tag_shows_why_with_its_path(visitor: Visitor, api: httpx.Client) -> None:
    users = {"name": "users", "type": "table", "columns": [{"name": "email", "tags": ["pii"]}]}
    assert api.put("/assets/crm.users", json=users).status_code == 201
    mart = {"name": "contacts", "type": "table", "columns": [{"name": "contact"}, {"name": "id"}]}
    assert api.put("/assets/mart.contacts", json=mart).status_code == 201
    for source, target, column, kind in (
        ("crm.users", "stg.users", "email", "identity"),
        ("stg.users", "mart.contacts", "contact", "transformation"),
    ):
        mapping = {"source": "email", "target": column, "kind": kind}
        edge = {"source": source, "target": target, "columns": [mapping]}
        assert api.post("/lineage", json=edge).status_code == 201
    make_user(api, "steward", "viewer")
    visitor.sign_in("steward")

    page = visitor.open("/assets/mart.contacts")
    row = page.get_by_role("row").filter(has=page.get_by_text("contact", exact=True))
    inherited = row.locator(".tag-inherited")
    expect(inherited).to_have_text("pii")
    path = row.locator("ol.tag-path")
    expect(path).to_be_hidden()
    row.get_by_text("why?").click()
    expect(path.locator("li")).to_have_text(
        [
            "crm.users.email",
            "stg.users.email via identity",
            "mart.contacts.contact via transformation",
        ]
    )
    expect(row.get_by_role("link", name="crm.users.email")).to_have_attribute(
        "href", "/assets/crm.users"
    )
    visitor.screenshot("asset-column-tags")

    tagged = visitor.open("/assets/crm.users")
    own = tagged.get_by_role("row").filter(has=tagged.get_by_text("email", exact=True))
    expect(own.locator(".tag")).to_have_text(["pii"])
    expect(own.locator(".tag-inherited")).to_have_count(0)
    assert visitor.accessibility_violations() == []
    assert visitor.watch.errors == []
