"""Teams and domains through /api/v1: who may change them, what they answer, and the
errors that name the field at fault."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.conftest import client_for
from tests.support.dashboard import make_user
from tests.support.server import LiveServer
from tests.support.tokens import token_of

DOMAIN = {"owner_team": "finance", "rules": [{"kind": "namespace", "value": "fin."}]}


@pytest.fixture
def finance(admin: httpx.Client) -> dict[str, Any]:
    answer = admin.put("/teams/finance", json={"display_name": "Finance"})
    assert answer.status_code == 201, answer.text
    team: dict[str, Any] = answer.json()
    return team


def field_of(answer: httpx.Response) -> list[list[Any]]:
    return [error["loc"] for error in answer.json()["errors"]]


def test_a_team_is_created_then_replaced_keeping_its_members(admin: httpx.Client) -> None:
    created = admin.put("/teams/data-eng", json={"display_name": "Data", "idp_groups": ["g1"]})
    assert created.status_code == 201, created.text
    assert created.headers["location"] == "/api/v1/teams/data-eng"
    team = created.json()
    assert (team["id"], team["display_name"], team["idp_groups"], team["members"]) == (
        "data-eng",
        "Data",
        ["g1"],
        [],
    )
    ada = make_user(admin, "ada", "viewer")
    assert admin.put(f"/teams/data-eng/members/{ada['id']}").status_code == 204
    replaced = admin.put("/teams/data-eng", json={"display_name": "Data engineering"})
    assert replaced.status_code == 200
    assert replaced.json()["members"] == [ada["id"]]
    assert replaced.json()["idp_groups"] == []
    assert admin.get("/teams/data-eng").json() == replaced.json()
    assert [t["id"] for t in admin.get("/teams").json()["items"]] == ["data-eng"]


def test_membership_is_idempotent_and_names_what_is_missing(
    admin: httpx.Client, finance: dict[str, Any]
) -> None:
    ada = make_user(admin, "ada", "viewer")
    for _ in range(2):
        assert admin.put(f"/teams/finance/members/{ada['id']}").status_code == 204
    assert admin.get("/teams/finance").json()["members"] == [ada["id"]]
    no_user = admin.put("/teams/finance/members/usr_nobody")
    assert (no_user.status_code, no_user.json()["code"]) == (404, "user_not_found")
    no_team = admin.put(f"/teams/nobody/members/{ada['id']}")
    assert (no_team.status_code, no_team.json()["code"]) == (404, "team_not_found")
    for _ in range(2):
        assert admin.delete(f"/teams/finance/members/{ada['id']}").status_code == 204
    assert admin.get("/teams/finance").json()["members"] == []


def test_a_team_body_or_id_that_is_wrong_is_422_naming_the_field(admin: httpx.Client) -> None:
    bad_id = admin.put("/teams/Not_A_Slug", json={})
    assert (bad_id.status_code, field_of(bad_id)) == (422, [["path", "team_id"]])
    bad_groups = admin.put("/teams/ok", json={"idp_groups": "admins"})
    assert bad_groups.status_code == 422
    assert field_of(bad_groups) == [["body", "idp_groups"]]
    unknown = admin.put("/teams/ok", json={"members": []})
    assert unknown.status_code == 422
    assert admin.get("/teams/ok").status_code == 404


def test_a_team_owning_a_domain_cannot_be_deleted(
    admin: httpx.Client, finance: dict[str, Any]
) -> None:
    assert admin.put("/domains/money", json=DOMAIN).status_code == 201
    refused = admin.delete("/teams/finance")
    assert refused.status_code == 409
    assert (refused.json()["code"], refused.json()["domains"]) == ("team_owns_domains", ["money"])
    assert admin.delete("/domains/money").status_code == 204
    assert admin.delete("/teams/finance").status_code == 204
    assert admin.get("/teams/finance").status_code == 404
    assert admin.delete("/teams/finance").status_code == 404


def test_a_domain_is_created_replaced_and_deleted(
    admin: httpx.Client, finance: dict[str, Any]
) -> None:
    assert admin.put("/teams/audit", json={}).status_code == 201
    body = {
        **DOMAIN,
        "display_name": "Money",
        "description": "Ledgers and payments",
        "grants": [{"team": "audit", "role": "viewer"}, {"team": "finance", "role": "viewer"}],
    }
    created = admin.put("/domains/money", json=body)
    assert created.status_code == 201, created.text
    domain = created.json()
    assert domain["rules"] == DOMAIN["rules"]
    assert domain["grants"] == [{"team": "audit", "role": "viewer"}]
    assert (domain["private"], domain["owner_team"], domain["asset_count"]) == (
        False,
        "finance",
        0,
    )
    assert admin.get("/domains/money").json() == domain
    replaced = admin.put("/domains/money", json={**DOMAIN, "private": True})
    assert replaced.status_code == 200
    assert (replaced.json()["private"], replaced.json()["grants"]) == (True, [])
    assert [d["id"] for d in admin.get("/domains").json()["items"]] == ["money"]
    assert admin.delete("/domains/money").status_code == 204
    assert admin.get("/domains/money").status_code == 404
    assert admin.delete("/domains/money").status_code == 404


def test_an_unknown_team_in_a_domain_is_422_naming_each_field(
    admin: httpx.Client, finance: dict[str, Any]
) -> None:
    body = {
        **DOMAIN,
        "owner_team": "ghosts",
        "grants": [{"team": "finance", "role": "admin"}, {"team": "nobody", "role": "viewer"}],
    }
    answer = admin.put("/domains/money", json=body)
    assert answer.status_code == 422
    assert answer.json()["code"] == "unknown_team"
    assert field_of(answer) == [["body", "owner_team"], ["body", "grants", 1, "team"]]
    assert admin.get("/domains/money").status_code == 404


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"rules": [{"kind": "regex", "value": "x"}]}, ["body", "rules", 0, "kind"]),
        ({"rules": [{"kind": "tag", "value": ""}]}, ["body", "rules", 0, "value"]),
        ({"rules": [{"kind": "tag", "value": "x"}] * 101}, ["body", "rules"]),
        ({"grants": [{"team": "finance", "role": "owner"}]}, ["body", "grants", 0, "role"]),
        ({"private": "yes"}, ["body", "private"]),
        ({"owner_team": None}, ["body", "owner_team"]),
    ],
)
def test_a_wrong_domain_body_is_422_naming_the_field_and_changes_nothing(
    admin: httpx.Client, finance: dict[str, Any], change: dict[str, Any], loc: list[Any]
) -> None:
    answer = admin.put("/domains/money", json={**DOMAIN, **change})
    assert answer.status_code == 422, answer.text
    assert loc in field_of(answer)
    assert admin.get("/domains/money").status_code == 404


def test_only_admins_change_teams_and_domains_and_readers_read_them(
    admin: httpx.Client,
    writer: httpx.Client,
    reader: httpx.Client,
    finance: dict[str, Any],
) -> None:
    assert admin.put("/domains/money", json=DOMAIN).status_code == 201
    for client in (writer, reader):
        assert client.put("/teams/other", json={}).status_code == 403
        assert client.delete("/teams/finance").status_code == 403
        assert client.put("/domains/money", json=DOMAIN).status_code == 403
        assert client.delete("/domains/money").status_code == 403
        assert client.get("/teams/finance").status_code == 200
        assert client.get("/domains/money").status_code == 200
    assert admin.get("/teams/other").status_code == 404


def test_a_private_domain_is_shown_only_to_admins(
    admin: httpx.Client, reader: httpx.Client, finance: dict[str, Any]
) -> None:
    assert admin.put("/domains/open", json=DOMAIN).status_code == 201
    assert admin.put("/domains/secret", json={**DOMAIN, "private": True}).status_code == 201
    assert [d["id"] for d in admin.get("/domains").json()["items"]] == ["open", "secret"]
    assert [d["id"] for d in reader.get("/domains").json()["items"]] == ["open"]
    assert reader.get("/domains/secret").status_code == 404


def test_team_and_domain_changes_are_events(admin: httpx.Client, finance: dict[str, Any]) -> None:
    admin.put("/assets/fin.ledger", json={"name": "ledger", "type": "table"}).raise_for_status()
    assert admin.put("/domains/money", json=DOMAIN).status_code == 201
    assert admin.delete("/domains/money").status_code == 204
    events = admin.get("/events", params={"types": "team.*,domain.*"}).json()["items"]
    seen = [(e["type"], e["data"].get("id") or e["data"].get("domain")) for e in events]
    assert ("team.created", "finance") in seen
    assert ("domain.created", "money") in seen
    assert ("domain.deleted", "money") in seen
    changed = [e["data"] for e in events if e["type"] == "domain.membership.changed"]
    assert {"domain": "money", "added": 1, "removed": 0} in changed
    assert {"domain": "money", "added": 0, "removed": 1} in changed


def test_an_admin_of_a_domain_may_replace_it_but_not_create_or_delete_one(
    live: LiveServer,
    admin: httpx.Client,
    finance: dict[str, Any],
    make_settings: Callable[..., Settings],
) -> None:
    dora = make_user(admin, "dora", "editor")
    admin.put(f"/teams/finance/members/{dora['id']}").raise_for_status()
    admin.put("/teams/ops", json={}).raise_for_status()
    assert admin.put("/domains/money", json=DOMAIN).status_code == 201
    assert admin.put("/domains/infra", json={**DOMAIN, "owner_team": "ops"}).status_code == 201
    with client_for(live, token_of(make_settings(), dora["id"], "admin")) as owner:
        replaced = owner.put("/domains/money", json={**DOMAIN, "display_name": "Money"})
        assert replaced.status_code == 200, replaced.text
        assert owner.put("/domains/infra", json=DOMAIN).status_code == 403
        assert owner.put("/domains/new-one", json=DOMAIN).status_code == 403
        assert owner.delete("/domains/money").status_code == 403
        assert owner.put("/teams/finance", json={}).status_code == 403
    assert admin.get("/domains/money").json()["display_name"] == "Money"
    assert admin.get("/domains/new-one").status_code == 404
