"""Where a write puts an asset, and what a domain's rules may take: a change of tags (or
dbt project) that would move an asset into a domain where the caller may not write is
403 `domain_forbidden` naming that domain (a private one it may not read unnamed),
nothing written; a domain admin's rules may not take assets from a domain they do not
administer, nor from outside every domain unless their global role may write there.
The domains here are made through the API, so every write places assets by real rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.conftest import client_for
from tests.integration import test_domain_access as access
from tests.support.dashboard import hidden_fields, make_user, sign_in
from tests.support.server import LiveServer
from tests.support.tokens import token_of

MERGE_PATCH = {"content-type": "application/merge-patch+json"}
# sales (public): namespace `sales.` and tag `sales`; finance (private): namespace
# `fin.` and tag `finance`; work (public, owned by team ops, sorting after sales so
# that sales wins a tie of two rules of one kind): the asset ops.jobs and tag `ops`.
SALES_RULES = [{"kind": "namespace", "value": "sales."}, {"kind": "tag", "value": "sales"}]
DOMAINS: dict[str, dict[str, Any]] = {
    "sales": {"owner_team": "sales", "rules": SALES_RULES},
    "finance": {
        "owner_team": "fin",
        "private": True,
        "rules": [{"kind": "namespace", "value": "fin."}, {"kind": "tag", "value": "finance"}],
    },
    "work": {
        "owner_team": "ops",
        "rules": [{"kind": "asset", "value": "ops.jobs"}, {"kind": "tag", "value": "ops"}],
    },
}
ASSETS = {
    "sales.orders": [],
    "orders_v2": ["sales"],
    "fin.secret": [],
    "ops.jobs": [],
    "ops.tagged": ["ops"],
    "raw.events": ["gold"],
}


@pytest.fixture
def world(admin: httpx.Client) -> None:
    for team in ("sales", "sales-eds", "fin", "ops"):
        admin.put(f"/teams/{team}", json={}).raise_for_status()
    for domain_id, body in DOMAINS.items():
        grants = [{"team": "sales-eds", "role": "editor"}] if domain_id == "sales" else []
        made = admin.put(f"/domains/{domain_id}", json={**body, "grants": grants})
        assert made.status_code == 201, made.text
    for asset_id, tags in ASSETS.items():
        body = {"id": asset_id, "name": asset_id, "type": "table", "tags": tags}
        assert admin.post("/assets", json=body).status_code == 201


@pytest.fixture
def person(
    admin: httpx.Client, live: LiveServer, make_settings: Callable[..., Settings], world: None
) -> Iterator[Callable[..., httpx.Client]]:
    """A client for a new user of global `role` in `teams`, holding a token of `scope`."""
    opened: list[httpx.Client] = []

    def make(name: str, role: str, scope: str, *teams: str) -> httpx.Client:
        user = make_user(admin, name, role)
        for team in teams:
            admin.put(f"/teams/{team}/members/{user['id']}").raise_for_status()
        client = client_for(live, token_of(make_settings(), user["id"], scope))
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.close()


def _asset(admin: httpx.Client, asset_id: str) -> dict[str, Any]:
    answer = admin.get(f"/assets/{asset_id}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _forbidden(answer: httpx.Response, listed: dict[str, str | None]) -> dict[str, Any]:
    assert answer.status_code == 403, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = answer.json()
    assert body["code"] == "domain_forbidden"
    assert {a["id"]: a["domain"] for a in body["assets"]} == listed
    assert body["assets_count"] == len(listed)
    return body


def test_the_fixture_places_assets_by_their_rules(admin: httpx.Client, world: None) -> None:
    placed = {a: _asset(admin, a)["domain"] for a in ASSETS}
    assert placed == {
        "sales.orders": "sales",
        "orders_v2": "sales",
        "fin.secret": "finance",
        "ops.jobs": "work",
        "ops.tagged": "work",
        "raw.events": None,
    }


def test_a_domain_editor_cannot_move_an_asset_out_of_their_domain_by_its_tags(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    editor = person("eda", "viewer", "write", "sales-eds")
    before = _asset(admin, "orders_v2")
    # Into a public domain where the editor has no role: named.
    _forbidden(
        editor.patch("/assets/orders_v2", json={"tags": ["ops"]}, headers=MERGE_PATCH),
        {"orders_v2": "work"},
    )
    put = {"name": "orders_v2", "type": "table", "tags": ["ops"]}
    _forbidden(editor.put("/assets/orders_v2", json=put), {"orders_v2": "work"})
    # Into a private domain the editor may not read: refused without its name.
    hidden = _forbidden(
        editor.patch("/assets/orders_v2", json={"tags": ["finance"]}, headers=MERGE_PATCH),
        {"orders_v2": None},
    )
    assert "finance" not in str(hidden)
    # Out of every domain, where the editor's global role (viewer) may not write.
    _forbidden(
        editor.patch("/assets/orders_v2", json={"tags": []}, headers=MERGE_PATCH),
        {"orders_v2": None},
    )
    assert _asset(admin, "orders_v2") == before
    # Changes that keep it in sales are written.
    kept = editor.patch("/assets/orders_v2", json={"tags": ["sales", "gold"]}, headers=MERGE_PATCH)
    assert kept.status_code == 200, kept.text
    assert (kept.json()["domain"], kept.json()["tags"]) == ("sales", ["sales", "gold"])
    described = editor.patch("/assets/orders_v2", json={"description": "d"}, headers=MERGE_PATCH)
    assert described.status_code == 200, described.text


def test_a_global_editor_cannot_pull_an_asset_into_a_domain_by_tags_or_creation(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    editor = person("gina", "editor", "write")
    _forbidden(
        editor.patch("/assets/raw.events", json={"tags": ["sales"]}, headers=MERGE_PATCH),
        {"raw.events": "sales"},
    )
    body = {"name": "raw.events", "type": "table", "tags": ["sales"]}
    _forbidden(editor.put("/assets/raw.events", json=body), {"raw.events": "sales"})
    # A dbt project is a placing field too.
    admin.put(
        "/domains/sales",
        json={
            "owner_team": "sales",
            "rules": [*SALES_RULES, {"kind": "dbt_project", "value": "shop"}],
        },
    ).raise_for_status()
    project = {"properties": {"dbt_project": "shop"}}
    _forbidden(
        editor.patch("/assets/raw.events", json=project, headers=MERGE_PATCH),
        {"raw.events": "sales"},
    )
    # PUT creating an asset places it by its fields, as POST does.
    new = {"name": "new one", "type": "table", "tags": ["sales"]}
    _forbidden(editor.put("/assets/new.one", json=new), {"new.one": "sales"})
    assert admin.get("/assets/new.one").status_code == 404
    assert _asset(admin, "raw.events")["tags"] == ["gold"]
    # Outside every domain the global role still decides.
    plain = editor.patch("/assets/raw.events", json={"tags": ["bronze"]}, headers=MERGE_PATCH)
    assert plain.status_code == 200, plain.text


def test_a_domain_editor_creates_by_put_where_the_body_places_the_asset_as_by_post(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    editor = person("eda", "viewer", "write", "sales-eds")  # global viewer, sales editor
    body = {"name": "orders v3", "type": "table", "tags": ["sales"]}
    made = editor.put("/assets/orders_v3", json=body)
    assert made.status_code == 201, made.text
    assert (made.json()["id"], made.json()["domain"]) == ("orders_v3", "sales")
    # Placed by its body in a domain where the editor has no role, or in none: refused.
    _forbidden(editor.put("/assets/jobs_v3", json={**body, "tags": ["ops"]}), {"jobs_v3": "work"})
    _forbidden(editor.put("/assets/loose_v3", json={**body, "tags": []}), {"loose_v3": None})
    # A global viewer with no role in sales (admin of work) may not create there.
    other = person("olly", "viewer", "write", "ops")
    _forbidden(other.put("/assets/orders_v4", json=body), {"orders_v4": "sales"})
    for refused in ("jobs_v3", "loose_v3", "orders_v4"):
        assert admin.get(f"/assets/{refused}").status_code == 404, refused
    in_sales = admin.get("/assets", params={"domain": "sales"}).json()["items"]
    assert {a["id"] for a in in_sales} == {"orders_v2", "orders_v3", "sales.orders"}


def test_a_dbt_upload_cannot_place_models_where_the_uploader_may_not_write(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    editor = person("uma", "editor", "write")
    with_project = [*SALES_RULES, {"kind": "dbt_project", "value": "shop"}]
    admin.put("/domains/sales", json={"owner_team": "sales", "rules": with_project})
    manifest = access._manifest()  # the project `shop`, one model
    _forbidden(access._upload(editor, manifest), {"model.shop.orders": "sales"})
    assert admin.get("/assets/model.shop.orders").status_code == 404
    admin.put("/domains/sales", json={"owner_team": "sales", "rules": SALES_RULES})
    assert access._upload(editor, manifest).status_code == 200
    # Once written outside every domain, new tags may not move it into one either.
    manifest["nodes"]["model.shop.orders"]["tags"] = ["sales"]
    _forbidden(access._upload(editor, manifest), {"model.shop.orders": "sales"})
    assert _asset(admin, "model.shop.orders")["domain"] is None


def test_a_global_admin_moves_assets_anywhere(admin: httpx.Client, world: None) -> None:
    moved = admin.patch("/assets/raw.events", json={"tags": ["finance"]}, headers=MERGE_PATCH)
    assert (moved.status_code, moved.json()["domain"]) == (200, "finance")


def _sales_with(*extra: dict[str, str]) -> dict[str, Any]:
    grants = [{"team": "sales-eds", "role": "editor"}]
    return {"owner_team": "sales", "rules": [*SALES_RULES, *extra], "grants": grants}


def test_a_domain_admin_cannot_take_assets_from_a_domain_they_do_not_administer(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    sam = person("sam", "viewer", "admin", "sales")
    before = admin.get("/domains/sales").json()
    taken = _forbidden(
        sam.put("/domains/sales", json=_sales_with({"kind": "asset", "value": "ops.jobs"})),
        {"ops.jobs": "work"},
    )
    assert [e["loc"] for e in taken["errors"]] == [["body", "rules", 2]]
    assert "the domain work" in taken["errors"][0]["msg"]
    # A private domain sam may not read is neither named nor shown.
    hidden = _forbidden(
        sam.put("/domains/sales", json=_sales_with({"kind": "asset", "value": "fin.secret"})),
        {"redacted:1": None},
    )
    assert [e["loc"] for e in hidden["errors"]] == [["body", "rules", 2]]
    assert "finance" not in str(hidden) and "fin.secret" not in str(hidden)
    # A namespace rule outranks a tag rule: it would take ops.tagged from work.
    by_prefix = _forbidden(
        sam.put("/domains/sales", json=_sales_with({"kind": "namespace", "value": "ops."})),
        {"ops.tagged": "work"},
    )
    assert [e["loc"] for e in by_prefix["errors"]] == [["body", "rules", 2]]
    # From outside every domain only with a global role that may write there.
    _forbidden(
        sam.put("/domains/sales", json=_sales_with({"kind": "tag", "value": "gold"})),
        {"raw.events": None},
    )
    assert admin.get("/domains/sales").json() == before
    assert {a: _asset(admin, a)["domain"] for a in ("ops.jobs", "ops.tagged", "raw.events")} == {
        "ops.jobs": "work",
        "ops.tagged": "work",
        "raw.events": None,
    }
    # Nor may a rule of the same kind that wins the tie (sales sorts before work).
    _forbidden(
        sam.put("/domains/sales", json=_sales_with({"kind": "tag", "value": "ops"})),
        {"ops.tagged": "work"},
    )
    # What takes nothing is allowed: work's explicit rule holds ops.jobs against any
    # prefix; keeping the rules sales has is no taking either.
    prefix = {"kind": "namespace", "value": "ops.jobs"}
    assert sam.put("/domains/sales", json=_sales_with(prefix)).status_code == 200
    assert sam.put("/domains/sales", json=_sales_with()).status_code == 200


def test_an_admin_of_both_domains_or_a_global_admin_may_move_assets_between_them(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    both = person("bea", "editor", "admin", "sales", "ops")
    rule = {"kind": "asset", "value": "ops.jobs"}
    assert both.put("/domains/sales", json=_sales_with(rule)).status_code == 200
    assert _asset(admin, "ops.jobs")["domain"] == "sales"
    gold = {"kind": "tag", "value": "gold"}  # raw.events, outside: bea is a global editor
    assert both.put("/domains/sales", json=_sales_with(rule, gold)).status_code == 200
    assert _asset(admin, "raw.events")["domain"] == "sales"
    finance = {"kind": "asset", "value": "fin.secret"}
    assert admin.put("/domains/sales", json=_sales_with(finance)).status_code == 200
    assert _asset(admin, "fin.secret")["domain"] == "sales"


def _form(browser: httpx.Client, asset_id: str) -> dict[str, str]:
    page = browser.get(f"/assets/{asset_id}")
    assert page.status_code == 200, page.text
    return hidden_fields(page.text)


def test_the_dashboard_form_saves_on_the_version_it_showed_and_keeps_missing_fields(
    person: Callable[..., httpx.Client], admin: httpx.Client, live: LiveServer
) -> None:
    person("dee", "viewer", "read", "sales-eds")
    admin.patch(
        "/assets/orders_v2", json={"description": "first"}, headers=MERGE_PATCH
    ).raise_for_status()
    with sign_in(live, "dee") as browser:
        shown = _form(browser, "orders_v2")
        assert shown["version"] == str(_asset(admin, "orders_v2")["version"])
        # Someone else writes after the page was shown: the form's save is refused.
        admin.patch(
            "/assets/orders_v2", json={"description": "theirs"}, headers=MERGE_PATCH
        ).raise_for_status()
        stale = browser.post(
            "/assets/orders_v2/edit", data={**shown, "description": "mine", "tags": "sales"}
        )
        assert stale.status_code == 412, stale.text
        assert "Someone else changed orders_v2" in stale.text
        assert 'href="/assets/orders_v2"' in stale.text
        assert _asset(admin, "orders_v2")["description"] == "theirs"
        # A form without the tags field leaves the tags as they are.
        fresh = _form(browser, "orders_v2")
        saved = browser.post("/assets/orders_v2/edit", data={**fresh, "description": "mine"})
        assert saved.status_code == 303, saved.text
        written = _asset(admin, "orders_v2")
        assert (written["description"], written["tags"]) == ("mine", ["sales"])
        # Tags that would move it where the editor may not write: 403 saying so.
        moved = browser.post(
            "/assets/orders_v2/edit", data={**_form(browser, "orders_v2"), "tags": "ops"}
        )
        assert moved.status_code == 403, moved.text
        assert "into the domain work" in moved.text
        garbled = browser.post("/assets/orders_v2/edit", data={**fresh, "version": "x1"})
        assert garbled.status_code == 400
    assert _asset(admin, "orders_v2")["tags"] == ["sales"]
