"""Open policy violations and the latest events of a private domain's assets, over HTTP:
the dashboard's home page, its Policies page and `GET /policies/{id}/violations` show
them only to readers with a role in the domain, never a byte of the asset's id, its
name or the domain's id to anyone else."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.support.dashboard import sign_in
from tests.support.private_domain import make_private_domain
from tests.support.server import LiveServer

# `vaultdom` is private (owned by team `vaultkeepers`) and holds every asset whose id
# starts with `vaultasset`; `open.raw` is in no domain. Neither secret string may reach
# an outsider, and the private asset's name holds neither, so each is checked apart.
PRIVATE_NAME = "Ledger of sealed balances"
SECRETS = ("vaultasset", "vaultdom", PRIVATE_NAME)
PUBLIC_NAME = "Raw open table"


@dataclass
class Setup:
    policy: dict[str, Any]
    outsider: str  # a token of a global viewer with no team
    insider: str  # a token of a global viewer in the owning team


@pytest.fixture
def setup(admin: httpx.Client, make_settings: Callable[..., Settings]) -> Setup:
    assets = {"open.raw": PUBLIC_NAME, "vaultasset.ledger": PRIVATE_NAME}
    vault = make_private_domain(admin, make_settings(), assets)
    # Neither asset has an owner: the policy finds both, and announces both findings.
    made = admin.post("/policies", json={"name": "tables have owners", "kind": "require_owner"})
    assert made.status_code == 201, made.text
    evaluated = admin.post("/policies/evaluate")
    assert evaluated.status_code == 200, evaluated.text
    return Setup(policy=made.json(), outsider=vault.outsider, insider=vault.insider)


def _pages(live: LiveServer, username: str) -> dict[str, bytes]:
    """The home page, its open violations and latest events apart, and the Policies page."""
    with sign_in(live, username) as browser:
        home, policies = browser.get("/"), browser.get("/policies")
    assert home.status_code == 200, home.text
    assert policies.status_code == 200, policies.text
    text = home.text
    return {
        "home": home.content,
        "violations": text.split('id="violations-heading"')[1].split("</section>")[0].encode(),
        "events": text.split('id="events-heading"')[1].split("</section>")[0].encode(),
        "policies": policies.content,
    }


def _violations(client: httpx.Client, policy_id: str) -> httpx.Response:
    answer = client.get(f"/policies/{policy_id}/violations", params={"limit": 500})
    assert answer.status_code == 200, answer.text
    return answer


def test_an_outsider_sees_no_byte_of_a_private_domain_on_the_overview_and_policies(
    setup: Setup, live: LiveServer, client_of: Callable[[str], httpx.Client]
) -> None:
    pages = _pages(live, "outsider")
    # The public asset's finding is there: the page and the section are the right ones.
    assert b"open.raw" in pages["violations"]
    assert PUBLIC_NAME.encode() in pages["violations"]
    assert b"policy.violation.opened" in pages["events"]
    assert PUBLIC_NAME.encode() in pages["policies"]
    answer = _violations(client_of(setup.outsider), setup.policy["id"])
    assert [v["asset_id"] for v in answer.json()["violations"]] == ["open.raw"]
    for where, body in [*pages.items(), ("api", answer.content)]:
        for secret in SECRETS:
            assert secret.encode() not in body, (where, secret)


def test_an_insider_sees_the_private_domains_findings_and_events(
    setup: Setup, live: LiveServer, client_of: Callable[[str], httpx.Client]
) -> None:
    pages = _pages(live, "insider")
    for where in ("violations", "policies"):
        assert b"vaultasset.ledger" in pages[where], where
        assert PRIVATE_NAME.encode() in pages[where], where
    assert b"vaultasset.ledger" in pages["events"]
    answer = _violations(client_of(setup.insider), setup.policy["id"])
    found = [v["asset_id"] for v in answer.json()["violations"]]
    assert found == ["open.raw", "vaultasset.ledger"]
