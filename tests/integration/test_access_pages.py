"""Settings → Teams and Settings → Domains: admins manage teams, members, rules and
grants in the dashboard, with the same rules (and CSRF) as every other settings page;
the asset page shows the asset's domain."""

from __future__ import annotations

import httpx

from tests.support.dashboard import make_user, page_csrf, sign_in
from tests.support.server import LiveServer


def test_admins_manage_teams_and_domains_in_the_dashboard(
    live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "boss", "admin")
    ada = make_user(admin, "ada", "viewer")
    admin.put("/assets/fin.ledger", json={"name": "ledger", "type": "table"}).raise_for_status()
    with sign_in(live, "boss") as client:
        csrf = page_csrf(client, "/settings/teams")
        made = client.post(
            "/settings/teams",
            data={"csrf_token": csrf, "id": "finance", "idp_groups": "fin-staff, fin-leads"},
        )
        assert made.status_code == 201, made.text
        joined = client.post(
            "/settings/teams/finance/members",
            data={"csrf_token": csrf, "action": "add", "user_id": ada["id"]},
        )
        assert joined.status_code == 303
        team = admin.get("/teams/finance").json()
        assert (team["idp_groups"], team["members"]) == (["fin-staff", "fin-leads"], [ada["id"]])
        assert "ada" in client.get("/settings/teams").text

        csrf = page_csrf(client, "/settings/domains")
        domain = client.post(
            "/settings/domains",
            data={
                "csrf_token": csrf,
                "id": "money",
                "owner_team": "finance",
                "rules": "namespace fin.\ntag ledger\n",
                "grants": "",
                "private": "on",
            },
        )
        assert domain.status_code == 201, domain.text
        assert "1 assets" in domain.text
        stored = admin.get("/domains/money").json()
        assert stored["private"] is True
        assert stored["rules"] == [
            {"kind": "namespace", "value": "fin."},
            {"kind": "tag", "value": "ledger"},
        ]
        asset_page = client.get("/assets/fin.ledger")
        assert 'data-testid="asset-domain">money<' in asset_page.text

        wrong = client.post(
            "/settings/domains",
            data={"csrf_token": csrf, "id": "bad", "owner_team": "finance", "rules": "regex x"},
        )
        assert wrong.status_code == 422
        assert "rules.0.kind" in wrong.text
        assert admin.get("/domains/bad").status_code == 404
        refused = client.post("/settings/teams/finance/delete", data={"csrf_token": csrf})
        assert refused.status_code == 409
        assert admin.get("/teams/finance").status_code == 200


def test_the_teams_and_domains_pages_are_for_admins_and_need_the_form_token(
    live: LiveServer, admin: httpx.Client
) -> None:
    make_user(admin, "ed", "editor")
    make_user(admin, "boss", "admin")
    with sign_in(live, "ed") as editor:
        assert editor.get("/settings/teams").status_code == 403
        assert editor.get("/settings/domains").status_code == 403
    with sign_in(live, "boss") as client:
        forged = client.post("/settings/teams", data={"id": "sneaky"})
        assert forged.status_code == 403
    assert admin.get("/teams/sneaky").status_code == 404
