"""`governance token create --user` makes a token that acts with the user's roles, in
domains too, as one made in the dashboard does; without `--user` a token acts as the
global role its scope names and holds no domain role."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.integration import test_domain_access as access
from tests.support.cli import governance, one_error_line
from tests.support.neo4j_server import Neo4jTarget
from tests.support.server import LiveServer

# finance (private) holds fin.secret and fin.report, sales (public) holds sales.orders,
# public.raw lies in no domain.
world = access.world
person = access.person
MERGE_PATCH = {"content-type": "application/merge-patch+json"}


def _token(target: Neo4jTarget, *args: str) -> str:
    made = governance(target, "token", "create", "--name", "cli", *args)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _patch(live: LiveServer, token: str, asset_id: str) -> httpx.Response:
    return httpx.patch(
        f"{live.url}/api/v1/assets/{asset_id}",
        json={"description": "from the cli token"},
        headers={"Authorization": f"Bearer {token}", **MERGE_PATCH},
    )


def test_a_cli_token_made_for_a_user_writes_inside_their_domain_only(
    person: Callable[..., httpx.Client],
    admin: httpx.Client,
    live: LiveServer,
    neo4j_target: Neo4jTarget,
) -> None:
    person("cleo", "viewer", "read", {"sales": "editor"})
    token = _token(neo4j_target, "--scope", "write", "--user", "cleo")
    inside = _patch(live, token, "sales.orders")
    assert inside.status_code == 200, inside.text
    access._refused(_patch(live, token, "public.raw"), {"public.raw": None})
    access._refused(_patch(live, token, "fin.report"), {"fin.report": None})  # private
    assert admin.get("/assets/public.raw").json().get("description") is None
    me = httpx.get(f"{live.url}/api/v1/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert (me["role"], me["domain_roles"]) == ("viewer", {"sales": "editor"})


def test_a_cli_token_without_a_user_holds_no_domain_role(
    person: Callable[..., httpx.Client], live: LiveServer, neo4j_target: Neo4jTarget
) -> None:
    token = _token(neo4j_target, "--scope", "write")
    assert _patch(live, token, "public.raw").status_code == 200
    access._refused(_patch(live, token, "sales.orders"), {"sales.orders": "sales"})


def test_a_cli_token_asks_no_more_than_the_users_best_role(
    person: Callable[..., httpx.Client], neo4j_target: Neo4jTarget
) -> None:
    person("vera", "viewer", "read")
    person("eddie", "viewer", "read", {"sales": "editor"})
    too_much = one_error_line(
        governance(
            neo4j_target, "token", "create", "--name", "x", "--scope", "write", "--user", "vera"
        )
    )
    assert "best role viewer" in too_much
    assert "scope write" in too_much
    admin_scope = one_error_line(
        governance(
            neo4j_target, "token", "create", "--name", "x", "--scope", "admin", "--user", "eddie"
        )
    )
    assert "best role editor" in admin_scope
    nobody = one_error_line(
        governance(
            neo4j_target, "token", "create", "--name", "x", "--scope", "read", "--user", "ghost"
        )
    )
    assert "no user named 'ghost'" in nobody
