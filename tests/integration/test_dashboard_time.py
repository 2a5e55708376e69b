"""The dashboard's time views and change-impact check without a browser: what the
pages' scripts read under /ui is the API's own answer (as of a moment, the diff, the
impact report), bad moments are 422 naming the field, and the one script POST needs
the session, the editor role and the CSRF header, and writes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from service import clock
from tests.support.dashboard import make_user, page_csrf, sign_in
from tests.support.server import LiveServer

MANIFEST = Path(__file__).resolve().parents[1] / "fixtures" / "dbt_quality" / "manifest.json"
REVENUE = "model.quality_shop.customer_revenue"
# The lineage page's first view, embedded as a JSON data block.
INITIAL = re.compile(r'<script type="application/json" data-lineage-initial>(.*?)</script>', re.S)


def moment_between() -> str:
    """An instant after everything written so far and before anything written next."""
    instant = clock.now_iso()
    while clock.now_iso() <= instant:
        pass
    return instant


def chain(admin: httpx.Client) -> str:
    """raw -> stg -> mart, stg -> mart deleted and stg -> bi made after the moment returned."""
    for asset_id in ("raw.orders", "stg.orders", "mart.orders", "bi.orders"):
        body = {"id": asset_id, "name": asset_id, "type": "table"}
        assert admin.post("/assets", json=body).status_code == 201
    for source, target in (("raw.orders", "stg.orders"), ("stg.orders", "mart.orders")):
        assert admin.post("/lineage", json={"source": source, "target": target}).status_code == 201
    before = moment_between()
    gone = {"source": "stg.orders", "target": "mart.orders"}
    assert admin.delete("/lineage/edges", params=gone).status_code == 204
    made = {"source": "stg.orders", "target": "bi.orders"}
    assert admin.post("/lineage", json=made).status_code == 201
    return before


def plain(view: dict[str, Any]) -> dict[str, Any]:
    """The page's view without what it draws beside the API's answer."""
    for key in ("as_of", "compare"):
        view.pop(key)
    for node in view["nodes"]:
        node.pop("dataset")
    for edge in view["edges"]:
        edge.pop("origins")
    return view


def test_the_view_as_of_a_moment_is_the_apis_traversal_then(
    live: LiveServer, admin: httpx.Client
) -> None:
    before = chain(admin)
    make_user(admin, "then", "viewer")
    api_answer = admin.get("/lineage/stg.orders", params={"depth": 2, "as_of": before})
    assert api_answer.status_code == 200, api_answer.text
    api_view = api_answer.json()
    assert {n["id"] for n in api_view["nodes"]} == {"raw.orders", "stg.orders", "mart.orders"}
    with sign_in(live, "then") as client:
        for given in (before, before.removesuffix("Z")):  # what a date-time field sends
            answer = client.get("/ui/lineage/stg.orders", params={"depth": 2, "as_of": given})
            assert answer.status_code == 200, answer.text
            view = answer.json()
            assert (view["as_of"], view["compare"]) == (before, None)
            assert plain(view) == api_view


def test_a_compared_view_is_both_moments_marked_as_the_apis_diff_found(
    live: LiveServer, admin: httpx.Client
) -> None:
    before = chain(admin)
    make_user(admin, "compare", "viewer")
    diff = admin.get("/lineage/stg.orders/diff", params={"depth": 2, "from": before}).json()
    with sign_in(live, "compare") as client:
        view = client.get("/ui/lineage/stg.orders", params={"depth": 2, "compare": before}).json()
    assert view["compare"]["with"] == view["compare"]["from"] == before
    assert view["compare"]["to"] >= diff["to"]
    marks = {n["id"]: n["change"] for n in view["nodes"]}
    assert marks == {
        "raw.orders": None,
        "stg.orders": None,
        "bi.orders": "added",
        "mart.orders": "removed",
    }
    assert {n["id"] for n in diff["added"]["nodes"]} == {"bi.orders"}
    assert {n["id"] for n in diff["removed"]["nodes"]} == {"mart.orders"}
    edges = {(e["source"], e["target"]): (e["change"], e["origins"]) for e in view["edges"]}
    assert edges == {
        ("raw.orders", "stg.orders"): (None, ["api"]),
        ("stg.orders", "bi.orders"): ("added", ["api"]),
        ("stg.orders", "mart.orders"): ("removed", []),  # nobody asserts it now
    }


def test_moments_the_page_cannot_read_are_422_naming_the_field(
    live: LiveServer, admin: httpx.Client
) -> None:
    chain(admin)
    make_user(admin, "typo", "viewer")
    with sign_in(live, "typo") as client:
        for name in ("as_of", "compare"):
            answer = client.get("/ui/lineage/stg.orders", params={name: "yesterday"})
            assert answer.status_code == 422
            assert answer.json()["errors"][0]["loc"] == ["query", name]
            page = client.get("/lineage/stg.orders", params={name: "2026-02-30T10:00"})
            assert page.status_code == 422
            assert f"{name} must be a date and time" in page.text


def test_a_moment_before_the_asset_existed_is_404_to_scripts_and_said_on_the_page(
    live: LiveServer, admin: httpx.Client
) -> None:
    long_ago = moment_between()
    chain(admin)
    make_user(admin, "early", "viewer")
    with sign_in(live, "early") as client:
        answer = client.get("/ui/lineage/stg.orders", params={"as_of": long_ago})
        assert answer.status_code == 404
        assert answer.json()["code"] == "asset_not_found"
        compared = client.get(
            "/ui/lineage/stg.orders", params={"as_of": long_ago, "compare": long_ago}
        )
        assert compared.status_code == 404
        page = client.get("/lineage/stg.orders", params={"as_of": long_ago})
        assert page.status_code == 200
        first = json.loads(INITIAL.findall(page.text)[0])
        assert first["problem"] == f"No asset with id 'stg.orders' at {long_ago}."
        assert (first["nodes"], first["as_of"]) == ([], long_ago)


def upload(admin: httpx.Client) -> None:
    answer = admin.post(
        "/lineage/manifest",
        content=MANIFEST.read_bytes(),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200, answer.text


def written(admin: httpx.Client) -> list[Any]:
    return [
        admin.get("/assets", params={"limit": 500}).json()["items"],
        admin.get("/lineage/edges", params={"limit": 500}).json()["items"],
        admin.get("/events", params={"limit": 500}).json()["items"],
    ]


def test_the_pages_impact_check_is_the_apis_and_needs_session_role_and_csrf_header(
    live: LiveServer, admin: httpx.Client
) -> None:
    upload(admin)
    make_user(admin, "looker", "viewer")
    make_user(admin, "checker", "editor")
    candidate = MANIFEST.read_bytes().replace(b'"net_revenue"', b'"net_revenue_usd"')
    files = {"file": ("manifest.json", candidate, "application/json")}
    before = written(admin)
    with httpx.Client(base_url=live.url) as stranger:
        refused = stranger.post("/ui/impact/manifest", files=files)
        assert (refused.status_code, refused.json()["code"]) == (401, "no_session")
    with sign_in(live, "looker") as viewer:
        refused = viewer.post("/ui/impact/manifest", files=files)
        assert (refused.status_code, refused.json()["code"]) == (403, "insufficient_scope")
    with sign_in(live, "checker") as client:
        csrf = page_csrf(client, "/ingest")
        for headers in ({}, {"X-CSRF-Token": "guess"}):
            refused = client.post("/ui/impact/manifest", files=files, headers=headers)
            assert (refused.status_code, refused.json()["code"]) == (403, "csrf_refused")
        foreign = {"X-CSRF-Token": csrf, "Origin": "https://evil.example"}
        refused = client.post("/ui/impact/manifest", files=files, headers=foreign)
        assert refused.status_code == 403
        answer = client.post("/ui/impact/manifest", files=files, headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 200, answer.text
        broken = client.post(
            "/ui/impact/manifest",
            files={"file": ("manifest.json", b"{not json", "application/json")},
            headers={"X-CSRF-Token": csrf},
        )
        assert broken.status_code == 422
        assert broken.json()["code"] == "invalid_manifest"
    report = answer.json()
    assert report == admin.post("/impact/manifest", files=files).json()
    assert report["breaking"]
    columns = [c for c in report["changes"] if c["kind"].startswith("column_")]
    assert {(c["kind"], c["asset"], c["column"]) for c in columns} == {
        ("column_removed", REVENUE, "net_revenue"),
        ("column_added", REVENUE, "net_revenue_usd"),
    }
    assert written(admin) == before


def test_the_history_tab_pages_refuses_a_bad_cursor_and_outlives_the_asset(
    live: LiveServer, admin: httpx.Client
) -> None:
    assert (
        admin.post("/assets", json={"id": "gone.soon", "name": "soon", "type": "table"}).status_code
        == 201
    )
    assert admin.delete("/assets/gone.soon").status_code == 204
    make_user(admin, "archivist", "viewer")
    with sign_in(live, "archivist") as client:
        page = client.get("/assets/gone.soon/history")
        assert page.status_code == 200
        assert 'class="badge">deleted</span>' in page.text
        assert page.text.count('<tr data-version="') == 2
        assert client.get("/assets/gone.soon/history", params={"cursor": "x"}).status_code == 400
        assert client.get("/assets/never.was/history").status_code == 404
