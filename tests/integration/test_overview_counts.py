"""The dashboard's overview counts only what its viewer may read: assets of private
domains the viewer holds no role in, the edges touching them, the quality rules
checking them and their open violations are left out of every figure (totals would
tell how much is hidden). A member of the domain and a global admin count them."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest

from service.settings import Settings
from tests.support.dashboard import make_user, sign_in
from tests.support.private_domain import make_private_domain
from tests.support.server import LiveServer

PUBLIC = ("open.raw", "open.mart")
HIDDEN = ("vaultasset.a", "vaultasset.b")
EDGES = [
    ("open.raw", "open.mart"),
    ("open.raw", "vaultasset.a"),  # into a hidden asset
    ("vaultasset.a", "vaultasset.b"),  # between two
    ("vaultasset.b", "open.mart"),  # out of one
]
LABELS = {
    "Assets": "assets",
    "Lineage edges": "edges",
    "Policies": "policies",
    "Quality rules": "rules",
    "Failing rules": "failing",
    "Open violations": "violations",
}
EVERYTHING = {"assets": 4, "edges": 4, "policies": 1, "rules": 3, "failing": 2, "violations": 4}
OUTSIDE = {"assets": 2, "edges": 1, "policies": 1, "rules": 1, "failing": 1, "violations": 2}


@pytest.fixture
def graph(admin: httpx.Client, make_settings: Callable[..., Settings]) -> None:
    """Two public and two private assets (none owned, so a require_owner policy finds
    each), four edges, and a failing rule on one asset of each side beside a passing
    one on a private asset; its outsider, its insider and a global admin."""
    make_private_domain(admin, make_settings(), {asset: asset for asset in PUBLIC + HIDDEN})
    for source, target in EDGES:
        made = admin.post("/lineage", json={"source": source, "target": target})
        assert made.status_code == 201, made.text
    for asset, status in (("open.raw", "fail"), ("vaultasset.a", "fail"), ("vaultasset.b", "pass")):
        rule = {"asset_id": asset, "column": "id", "name": "never null", "type": "not_null"}
        made = admin.post("/quality/rules", json=rule)
        assert made.status_code == 201, made.text
        result = admin.post(f"/quality/rules/{made.json()['id']}/results", json={"status": status})
        assert result.status_code in (200, 201), result.text
    policy = admin.post("/policies", json={"name": "owned", "kind": "require_owner"})
    assert policy.status_code == 201, policy.text
    assert admin.post("/policies/evaluate").status_code == 200
    make_user(admin, "boss", "admin")


def counts_seen_by(live: LiveServer, username: str) -> dict[str, int]:
    """The figures of the overview's counts, by what each is labelled."""
    with sign_in(live, username) as browser:
        home = browser.get("/")
    assert home.status_code == 200, home.text
    section = home.text.split('id="counts-heading"')[1].split("</section>")[0]
    pairs = re.findall(
        r'<span class="stat-value">(\d+)</span><span class="stat-label">([^<]+)</span>', section
    )
    return {LABELS[label]: int(value) for value, label in pairs}


@pytest.mark.usefixtures("graph")
def test_a_viewer_without_a_role_in_a_private_domain_counts_none_of_it(live: LiveServer) -> None:
    assert counts_seen_by(live, "outsider") == OUTSIDE


@pytest.mark.usefixtures("graph")
@pytest.mark.parametrize("username", ["insider", "boss"])
def test_a_member_and_a_global_admin_count_everything(live: LiveServer, username: str) -> None:
    assert counts_seen_by(live, username) == EVERYTHING


def test_with_no_private_domain_a_viewer_counts_everything(
    admin: httpx.Client, live: LiveServer
) -> None:
    domain = {
        "owner_team": "openers",
        "private": False,
        "rules": [{"kind": "namespace", "value": "open"}],
    }
    assert admin.put("/teams/openers", json={}).status_code == 201
    assert admin.put("/domains/opendom", json=domain).status_code == 201
    for asset in PUBLIC:
        assert (
            admin.post("/assets", json={"id": asset, "name": asset, "type": "table"}).status_code
            == 201
        )
    assert (
        admin.post("/lineage", json={"source": PUBLIC[0], "target": PUBLIC[1]}).status_code == 201
    )
    make_user(admin, "outsider", "viewer")
    seen = counts_seen_by(live, "outsider")
    assert (seen["assets"], seen["edges"]) == (2, 1)
