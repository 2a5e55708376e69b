"""The lineage page's further pages without a browser: what its script reads under
/ui/lineage with a cursor is the API's own next page, the page itself can ask for a
larger view (`limit`: it arrives with its first 2,000 assets and a cursor for the rest,
which the script fetches), and what cannot be paged or read is 422 naming the field."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from tests.support.dashboard import make_user, sign_in
from tests.support.server import LiveServer

INITIAL = re.compile(r'<script type="application/json" data-lineage-initial>(.*?)</script>', re.S)
ROOT = "pages.root"


def fan(admin: httpx.Client, width: int) -> None:
    edges = [{"source": ROOT, "target": f"pages.t{i:02d}"} for i in range(width)]
    answer = admin.post("/lineage/bulk", json=edges)
    assert answer.status_code in (200, 201), answer.text


def plain(view: dict[str, Any]) -> dict[str, Any]:
    """The page's view without what it draws beside the API's answer."""
    for key in ("as_of", "compare"):
        view.pop(key)
    for node in view["nodes"]:
        node.pop("dataset")
    for edge in view["edges"]:
        edge.pop("origins")
    return view


def test_the_scripts_next_page_is_the_apis_next_page(live: LiveServer, admin: httpx.Client) -> None:
    fan(admin, 7)
    make_user(admin, "pager", "viewer")
    first = admin.get(f"/lineage/{ROOT}", params={"limit": 3}).json()
    assert first["next_cursor"]
    second = admin.get(f"/lineage/{ROOT}", params={"limit": 3, "cursor": first["next_cursor"]})
    assert second.status_code == 200, second.text
    with sign_in(live, "pager") as client:
        page = client.get(f"/lineage/{ROOT}", params={"limit": 3})
        assert page.status_code == 200
        embedded = json.loads(INITIAL.search(page.text).group(1))  # type: ignore[union-attr]
        assert embedded["next_cursor"] == first["next_cursor"]
        assert embedded["remaining"] == {"downstream": 5, "upstream": 0}
        params = {"limit": 3, "cursor": first["next_cursor"]}
        answer = client.get(f"/ui/lineage/{ROOT}", params=params)
        assert answer.status_code == 200, answer.text
        assert plain(answer.json()) == second.json()


def test_a_page_asking_past_its_first_page_arrives_with_2000_and_a_cursor_for_the_rest(
    live: LiveServer, admin: httpx.Client
) -> None:
    fan(admin, 2_004)
    make_user(admin, "filler", "viewer")
    with sign_in(live, "filler") as client:
        page = client.get(f"/lineage/{ROOT}", params={"limit": 2_010})
        assert page.status_code == 200
        assert 'data-limit="2010"' in page.text
        embedded = json.loads(INITIAL.search(page.text).group(1))  # type: ignore[union-attr]
        assert len(embedded["nodes"]) == 2_000
        assert embedded["remaining"] == {"downstream": 5, "upstream": 0}
        params = {"limit": 10, "cursor": embedded["next_cursor"]}
        rest = client.get(f"/ui/lineage/{ROOT}", params=params).json()
        seen = {n["id"] for n in embedded["nodes"]} | {n["id"] for n in rest["nodes"]}
        assert len(seen) == 2_005
        assert rest["next_cursor"] is None


def test_a_cursor_with_compare_or_past_its_length_is_422_naming_it(
    live: LiveServer, admin: httpx.Client
) -> None:
    fan(admin, 2)
    make_user(admin, "bad-pager", "viewer")
    with sign_in(live, "bad-pager") as client:
        compared = {"cursor": "abc", "compare": "2026-01-01T00:00:00Z"}
        long = {"cursor": "a" * 5000}
        for params in (compared, long):
            answer = client.get(f"/ui/lineage/{ROOT}", params=params)
            assert answer.status_code == 422, answer.text
            assert [e["loc"] for e in answer.json()["errors"]] == [["query", "cursor"]]
        too_many = client.get(f"/lineage/{ROOT}", params={"limit": 10_000_000})
        assert too_many.status_code == 422
