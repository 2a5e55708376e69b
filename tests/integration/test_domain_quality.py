"""Quality rules and column tag rules are written where their assets lie: a domain
editor writes them inside their domain and is refused outside it (403
`domain_forbidden` listing the assets, nothing written), a global editor without a
grant is refused inside a domain, and a private domain's rules are absent to callers
with no role in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import neo4j

from tests.integration import test_domain_access as access
from tests.support.dashboard import create_token_in_dashboard, page_csrf, sign_in
from tests.support.server import LiveServer

# The fixtures of the per-domain suite: finance (private) holds fin.secret and
# fin.report, sales (public) holds sales.orders, public.raw lies in no domain.
world = access.world
person = access.person
refused = access._refused
MERGE_PATCH = {"content-type": "application/merge-patch+json"}


def _rule(asset_id: str, name: str = "never null") -> dict[str, Any]:
    return {"asset_id": asset_id, "column": "id", "name": name, "type": "not_null"}


def _made(admin: httpx.Client, asset_id: str, name: str = "never null") -> dict[str, Any]:
    made = admin.post("/quality/rules", json=_rule(asset_id, name))
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def _rule_count(driver: neo4j.Driver) -> int:
    records, _, _ = driver.execute_query("MATCH (r:QualityRule) RETURN count(r) AS n")
    return int(records[0]["n"])


def test_a_domain_editor_writes_quality_rules_inside_their_domain_only(
    person: Callable[..., httpx.Client], admin: httpx.Client, driver: neo4j.Driver
) -> None:
    editor = person("qed", "viewer", "write", {"sales": "editor"})
    made = editor.post("/quality/rules", json=_rule("sales.orders"))
    assert made.status_code == 201, made.text
    rule_id = made.json()["id"]
    patched = editor.patch(
        f"/quality/rules/{rule_id}", json={"name": "renamed"}, headers=MERGE_PATCH
    )
    assert patched.status_code == 200, patched.text
    recorded = editor.post(f"/quality/rules/{rule_id}/results", json={"status": "pass"})
    assert recorded.status_code == 201, recorded.text

    count = _rule_count(driver)
    refused(editor.post("/quality/rules", json=_rule("public.raw")), {"public.raw": None})
    # finance is private and qed has no role in it: the refusal tells no more than a
    # read would (the asset a rule names is looked up by the service: a stand-in).
    refused(editor.post("/quality/rules", json=_rule("fin.secret")), {"redacted:1": None})
    # Moving a rule out of the domain is a write where it would land.
    refused(
        editor.put(f"/quality/rules/{rule_id}", json=_rule("public.raw", "moved")),
        {"public.raw": None},
    )
    refused(
        editor.patch(
            f"/quality/rules/{rule_id}", json={"asset_id": "fin.report"}, headers=MERGE_PATCH
        ),
        {"redacted:1": None},
    )
    assert _rule_count(driver) == count
    kept = admin.get(f"/quality/rules/{rule_id}").json()
    assert (kept["asset_id"], kept["name"]) == ("sales.orders", "renamed")

    outside = _made(admin, "public.raw")
    refused(editor.delete(f"/quality/rules/{outside['id']}"), {"public.raw": None})
    refused(
        editor.post(f"/quality/rules/{outside['id']}/results", json={"status": "fail"}),
        {"public.raw": None},
    )
    assert admin.get(f"/quality/rules/{outside['id']}").json()["status"] == "unknown"
    assert editor.delete(f"/quality/rules/{rule_id}").status_code == 204
    assert admin.get(f"/quality/rules/{rule_id}").status_code == 404


def test_a_global_editor_without_a_grant_writes_no_rule_inside_a_domain(
    person: Callable[..., httpx.Client], admin: httpx.Client, driver: neo4j.Driver
) -> None:
    editor = person("qge", "editor", "write")
    inside = _made(admin, "sales.orders")
    count = _rule_count(driver)
    refused(editor.post("/quality/rules", json=_rule("sales.orders")), {"sales.orders": "sales"})
    refused(
        editor.patch(f"/quality/rules/{inside['id']}", json={"name": "x"}, headers=MERGE_PATCH),
        {"sales.orders": "sales"},
    )
    refused(editor.delete(f"/quality/rules/{inside['id']}"), {"sales.orders": "sales"})
    assert _rule_count(driver) == count
    assert admin.get(f"/quality/rules/{inside['id']}").json()["name"] == "never null"
    # Outside every domain the global role still decides.
    assert editor.post("/quality/rules", json=_rule("public.raw")).status_code == 201


def test_a_private_domains_rules_are_absent_to_callers_without_a_role(
    person: Callable[..., httpx.Client], admin: httpx.Client, live: LiveServer
) -> None:
    hidden = _made(admin, "fin.secret", "secret ledger balances")
    shown = _made(admin, "public.raw")
    for rule in (hidden, shown):
        failed = admin.post(f"/quality/rules/{rule['id']}/results", json={"status": "fail"})
        assert failed.status_code == 201, failed.text
    outsider = person("qout", "editor", "read")
    member = person("qin", "viewer", "read", {"finance": "viewer"})

    for path in (f"/quality/rules/{hidden['id']}", f"/quality/rules/{hidden['id']}/results"):
        absent = outsider.get(path)
        assert (absent.status_code, absent.json()["code"]) == (404, "quality_rule_not_found")
        assert member.get(path).status_code == 200
    listed = [r["id"] for r in outsider.get("/quality/rules").json()["items"]]
    assert listed == [shown["id"]]
    assert outsider.get("/quality/rules", params={"asset_id": "fin.secret"}).json()["items"] == []
    seen = {r["id"] for r in member.get("/quality/rules").json()["items"]}
    assert seen == {hidden["id"], shown["id"]}
    # The dashboard's Quality page and the overview's failing rules alike.
    with sign_in(live, "qout") as browser:
        quality = browser.get("/quality")
        assert quality.status_code == 200, quality.text
        assert shown["name"] in quality.text
        assert hidden["name"] not in quality.text
        overview = browser.get("/").text
        failing = overview.split('id="failing-heading"')[1].split("</section>")[0]
        assert shown["name"] in failing
        assert hidden["name"] not in failing
    with sign_in(live, "qin") as browser:
        assert hidden["name"] in browser.get("/quality").text


PLACED_AGAIN = """
MATCH (a:Asset {id: $id})
SET a.domain = $domain, a.domain_private = CASE WHEN $private THEN true END
"""


def _tagged(
    admin: httpx.Client, driver: neo4j.Driver, asset_id: str, tag: str, domain: str, private: bool
) -> None:
    """The asset's column tagged; placed again where the suite put it (a write places an
    asset by the domains' rules, and the suite's domains have none)."""
    body = {"name": asset_id, "type": "table", "columns": [{"name": "id", "tags": [tag]}]}
    written = admin.put(f"/assets/{asset_id}", json=body)
    assert written.status_code == 200, written.text
    driver.execute_query(PLACED_AGAIN, id=asset_id, domain=domain, private=private)


def test_a_column_tag_rule_is_written_only_where_the_tag_lies(
    person: Callable[..., httpx.Client], admin: httpx.Client, driver: neo4j.Driver
) -> None:
    _tagged(admin, driver, "sales.orders", "pii", "sales", False)
    _tagged(admin, driver, "fin.secret", "secret", "finance", True)
    domain_editor = person("ted", "viewer", "write", {"sales": "editor"})
    global_editor = person("tge", "editor", "write")

    mine = domain_editor.put("/column-tags/pii", json={"stops": ["masking"]})
    assert mine.status_code == 200, mine.text
    # The holders of `secret` are found by the service, and fin.secret lies in the private
    # finance domain: the refusal counts it as a stand-in, neither id nor domain.
    refused(domain_editor.put("/column-tags/secret", json={"stops": []}), {"redacted:1": None})
    assert "fin.secret" not in domain_editor.put("/column-tags/secret", json={"stops": []}).text
    refused(global_editor.put("/column-tags/pii", json={"stops": []}), {"sales.orders": "sales"})
    assert admin.get("/column-tags/pii").json()["stops"] == ["masking"]
    assert admin.get("/column-tags/secret").json()["default"] is True
    # A tag no asset holds touches no domain: the global role decides.
    unused = domain_editor.put("/column-tags/unused", json={"stops": []})
    assert (unused.status_code, unused.json()["code"]) == (403, "insufficient_scope")
    assert global_editor.put("/column-tags/unused", json={"stops": []}).status_code == 200


def _edit(browser: httpx.Client, asset_id: str, description: str) -> httpx.Response:
    csrf = page_csrf(browser, "/assets")
    return browser.post(
        f"/assets/{asset_id}/edit",
        data={"csrf_token": csrf, "description": description, "tags": "gold, reviewed"},
    )


def test_a_domain_editor_edits_assets_of_their_domain_in_the_dashboard_only(
    person: Callable[..., httpx.Client], admin: httpx.Client, live: LiveServer
) -> None:
    person("dash", "viewer", "read", {"sales": "editor"})
    before = {a: access._asset(admin, a) for a in ("public.raw", "fin.report")}
    with sign_in(live, "dash") as browser:
        page = browser.get("/assets/sales.orders")
        assert 'data-testid="asset-edit"' in page.text
        assert 'href="/ingest"' in page.text  # an editor somewhere may ingest
        saved = _edit(browser, "sales.orders", "edited in the dashboard")
        assert (saved.status_code, saved.headers["location"]) == (
            303,
            "/assets/sales.orders?saved=1",
        )
        assert 'data-testid="asset-saved"' in browser.get(saved.headers["location"]).text

        outside = browser.get("/assets/public.raw")
        assert outside.status_code == 200
        assert 'data-testid="asset-edit"' not in outside.text
        refused_here = _edit(browser, "public.raw", "no")
        assert refused_here.status_code == 403, refused_here.text
        assert "outside every domain" in refused_here.text
        refused_there = _edit(browser, "fin.report", "no")
        assert refused_there.status_code == 404  # private, and no role there: absent
        # The best role anywhere caps a token: an editor of one domain makes a write token.
        token = create_token_in_dashboard(browser, "mine", "write")
        assert token.status_code == 201, token.text
    written = access._asset(admin, "sales.orders")
    assert (written["description"], written["tags"]) == (
        "edited in the dashboard",
        ["gold", "reviewed"],
    )
    assert {a: access._asset(admin, a) for a in before} == before


def test_a_global_editor_without_a_grant_edits_no_domain_asset_in_the_dashboard(
    person: Callable[..., httpx.Client], admin: httpx.Client, live: LiveServer
) -> None:
    person("dge", "editor", "read")
    before = access._asset(admin, "sales.orders")
    with sign_in(live, "dge") as browser:
        assert 'data-testid="asset-edit"' not in browser.get("/assets/sales.orders").text
        answer = _edit(browser, "sales.orders", "no")
        assert answer.status_code == 403, answer.text
        assert "in the domain sales" in answer.text
        assert _edit(browser, "public.raw", "fine").status_code == 303
    assert access._asset(admin, "sales.orders") == before
    assert access._asset(admin, "public.raw")["description"] == "fine"
