"""Teams, domains, /me's teams and domain roles, the asset ``domain`` filter, the
``domain_forbidden`` refusal and redacted traversal nodes, on a scripted transport:
what goes on the wire and how the answers read. No network. The answers are the
service's shapes (service/models/teams.py, domains.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from scripted import Script, ok, problem

from governance_client import (
    AsyncClient,
    Client,
    ConflictError,
    DomainForbiddenError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
    is_redacted,
)
from governance_client._errors import error_kind

STAMPS = {"created_at": "2026-11-27T12:00:00Z", "updated_at": "2026-11-27T12:00:00Z"}
TEAM = {"id": "finance", "display_name": "Finance", "idp_groups": ["fin"], "members": [], **STAMPS}
DOMAIN = {
    "id": "ledger",
    "display_name": "Ledger",
    "description": None,
    "private": True,
    "owner_team": "finance",
    "rules": [{"kind": "namespace", "value": "pg://ledger"}],
    "grants": [{"team": "finance", "role": "admin"}, {"team": "audit", "role": "viewer"}],
    "asset_count": 3,
    **STAMPS,
}


def no_content() -> httpx.Response:
    return httpx.Response(204)


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)


def wire(request: httpx.Request) -> tuple[str, str]:
    return request.method, request.url.raw_path.decode()


# -- teams ----------------------------------------------------------------------------


def test_a_team_is_put_read_listed_and_deleted(make: Callable[..., Client]) -> None:
    script = Script(ok(TEAM, 201), ok(TEAM), ok({"items": [TEAM]}), no_content())
    client = make(script)
    assert client.teams.put("finance", display_name="Finance", idp_groups=("fin",)) == TEAM
    assert client.teams.get("finance") == TEAM
    assert client.teams.list() == {"items": [TEAM]}
    assert client.teams.delete("finance") is None
    put, get, listed, delete = script.requests
    assert wire(put) == ("PUT", "/api/v1/teams/finance")
    assert body_of(put) == {"display_name": "Finance", "idp_groups": ["fin"]}
    assert "idempotency-key" not in put.headers
    assert wire(get) == ("GET", "/api/v1/teams/finance")
    assert wire(listed) == ("GET", "/api/v1/teams")
    assert listed.url.query == b""
    assert wire(delete) == ("DELETE", "/api/v1/teams/finance")


def test_a_team_put_sends_only_what_is_given(make: Callable[..., Client]) -> None:
    script = Script(ok(TEAM))
    make(script).teams.put("finance")
    assert body_of(script.requests[0]) == {}


def test_created_and_replaced_teams_are_told_apart(make: Callable[..., Client]) -> None:
    script = Script(ok(TEAM, 201), ok(TEAM, 200))
    client = make(script)
    assert client.with_raw_response.teams.put("finance").status_code == 201
    replaced = client.with_raw_response.teams.put("finance", idp_groups=[])
    assert (replaced.status_code, replaced.parse()) == (200, TEAM)
    assert body_of(script.requests[1]) == {"idp_groups": []}


def test_members_are_added_and_removed_by_user_id(make: Callable[..., Client]) -> None:
    script = Script(no_content(), no_content())
    client = make(script)
    assert client.teams.add_member("finance", "usr_1/2") is None
    assert client.teams.remove_member("finance", "usr_1/2") is None
    added, removed = script.requests
    assert wire(added) == ("PUT", "/api/v1/teams/finance/members/usr_1%2F2")
    assert added.content == b""
    assert wire(removed) == ("DELETE", "/api/v1/teams/finance/members/usr_1%2F2")


def test_team_errors_keep_their_codes(make: Callable[..., Client]) -> None:
    errors = [{"loc": ["path", "team_id"], "msg": "m", "type": "t"}]
    script = Script(
        problem(409, "team_owns_domains"),
        problem(404, "not_found"),
        problem(422, "validation_error", errors=errors),
    )
    client = make(script)
    with pytest.raises(ConflictError) as owns:
        client.teams.delete("finance")
    assert owns.value.code == "team_owns_domains"
    with pytest.raises(NotFoundError):
        client.teams.add_member("finance", "usr_nobody")
    with pytest.raises(ValidationError) as bad:
        client.teams.put("Not A Slug")
    assert bad.value.errors[0]["loc"] == ["path", "team_id"]
    assert len(script.requests) == 3, "a 409 and 4xx are not retried"


# -- domains --------------------------------------------------------------------------


def test_a_domain_is_put_with_rules_and_grants(make: Callable[..., Client]) -> None:
    script = Script(ok(DOMAIN, 201))
    domain = make(script).domains.put(
        "ledger",
        owner_team="finance",
        rules=[{"kind": "namespace", "value": "pg://ledger"}],
        grants=[{"team": "audit", "role": "viewer"}],
        private=True,
        display_name="Ledger",
    )
    assert domain["asset_count"] == 3
    put = script.requests[0]
    assert wire(put) == ("PUT", "/api/v1/domains/ledger")
    assert body_of(put) == {
        "display_name": "Ledger",
        "private": True,
        "owner_team": "finance",
        "rules": [{"kind": "namespace", "value": "pg://ledger"}],
        "grants": [{"team": "audit", "role": "viewer"}],
    }


def test_a_domain_put_leaves_defaults_to_the_service(make: Callable[..., Client]) -> None:
    script = Script(ok(DOMAIN))
    make(script).domains.put("ledger", owner_team="finance")
    assert body_of(script.requests[0]) == {"owner_team": "finance"}


def test_domains_are_read_listed_and_deleted(make: Callable[..., Client]) -> None:
    script = Script(ok(DOMAIN), ok({"items": [DOMAIN]}), no_content())
    client = make(script)
    assert client.domains.get("ledger")["owner_team"] == "finance"
    assert [d["id"] for d in client.domains.list()["items"]] == ["ledger"]
    client.domains.delete("ledger")
    assert [wire(r) for r in script.requests] == [
        ("GET", "/api/v1/domains/ledger"),
        ("GET", "/api/v1/domains"),
        ("DELETE", "/api/v1/domains/ledger"),
    ]


def test_an_unknown_owner_team_is_a_validation_error(make: Callable[..., Client]) -> None:
    errors = [{"loc": ["body", "owner_team"], "msg": "no such team", "type": "unknown_team"}]
    script = Script(problem(422, "validation_error", errors=errors))
    with pytest.raises(ValidationError) as caught:
        make(script).domains.put("ledger", owner_team="ghosts")
    assert caught.value.errors == errors


# -- assets, /me, refusals and redaction ----------------------------------------------


def test_assets_are_filtered_by_domain(make: Callable[..., Client]) -> None:
    asset = {"id": "pg://ledger/t", "domain": "ledger"}
    script = Script(
        ok({"items": [asset], "next_cursor": None}), ok({"items": [], "next_cursor": None})
    )
    client = make(script)
    assert client.assets.list(domain="ledger")["items"][0]["domain"] == "ledger"
    assert list(client.assets.iter(domain="ledger", limit=10)) == []
    assert [r.url.params.get("domain") for r in script.requests] == ["ledger", "ledger"]


def test_me_names_the_teams_and_domain_roles(make: Callable[..., Client]) -> None:
    me = {"token": {"id": "tok_1"}, "user": None, "teams": ["finance"],
          "domain_roles": {"ledger": "admin"}}  # fmt: skip
    assert make(Script(ok(me))).me()["domain_roles"] == {"ledger": "admin"}


def test_domain_forbidden_lists_the_refused_assets(make: Callable[..., Client]) -> None:
    refused = [{"id": "pg://ledger/t", "domain": "ledger"}, {"id": "loose", "domain": None}]
    script = Script(problem(403, "domain_forbidden", assets=refused, assets_count=120))
    with pytest.raises(DomainForbiddenError) as caught:
        make(script).lineage.add_edge("loose", "pg://ledger/t")
    error = caught.value
    assert isinstance(error, PermissionDeniedError)
    assert (error.status, error.code, error.assets_count) == (403, "domain_forbidden", 120)
    assert error.assets == refused
    assert error_kind(403, "domain_forbidden") == "permission"
    assert len(script.requests) == 1


def test_another_403_stays_a_plain_permission_error(make: Callable[..., Client]) -> None:
    script = Script(problem(403, "insufficient_scope"))
    with pytest.raises(PermissionDeniedError) as caught:
        make(script).teams.put("finance")
    assert type(caught.value) is PermissionDeniedError


def test_a_domain_forbidden_without_a_list_reads_as_empty(make: Callable[..., Client]) -> None:
    script = Script(problem(403, "domain_forbidden", assets="?"))
    with pytest.raises(DomainForbiddenError) as caught:
        make(script).assets.delete("a")
    assert (caught.value.assets, caught.value.assets_count) == ([], 0)


def test_redacted_nodes_are_stand_ins_in_a_traversal(make: Callable[..., Client]) -> None:
    graph = {
        "root": "a", "direction": "downstream", "depth": 2, "truncated": False,
        "next_cursor": None, "remaining": {}, "hidden": {}, "capped": [], "redacted": 1,
        "nodes": [
            {"id": "a", "name": "a", "type": "table", "platform": None, "tags": [],
             "placeholder": False, "distance": 0, "direction": "root"},
            {"id": "redacted:1", "redacted": True, "team": "finance", "distance": 1},
        ],
        "edges": [{"source": "a", "target": "redacted:1", "transformation": None}],
    }  # fmt: skip
    answer = make(Script(ok(graph))).lineage.downstream("a", depth=2)
    stand_ins = [n for n in answer["nodes"] if is_redacted(n)]
    assert [(n["id"], n["team"], n["distance"]) for n in stand_ins] == [
        ("redacted:1", "finance", 1)
    ]
    assert answer["redacted"] == len(stand_ins)
    assert [n["id"] for n in answer["nodes"] if not is_redacted(n)] == ["a"]


@pytest.mark.anyio
async def test_the_async_client_has_teams_and_domains() -> None:
    script = Script(ok(TEAM, 201), no_content(), ok({"items": [DOMAIN]}))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        assert (await client.teams.put("finance"))["id"] == "finance"
        await client.teams.add_member("finance", "usr_1")
        assert (await client.domains.list())["items"] == [DOMAIN]
    assert [wire(r) for r in script.requests] == [
        ("PUT", "/api/v1/teams/finance"),
        ("PUT", "/api/v1/teams/finance/members/usr_1"),
        ("GET", "/api/v1/domains"),
    ]
