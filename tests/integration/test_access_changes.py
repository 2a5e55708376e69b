"""A changed membership, grant or global role counts from the caller's next request on
the lineage traversals too, although those skip the token look-up for a token the
process remembers: their statement compares the role and grants it was read with."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import pytest

from service.settings import Settings
from tests.conftest import client_for
from tests.support.dashboard import make_user
from tests.support.server import LiveServer
from tests.support.tokens import token_of

SECRET = "vaultasset"
# Each traversal route that re-checks a remembered token, in its three statements.
WALKS: tuple[tuple[str, dict[str, str | int]], ...] = (
    ("/lineage/open.a", {"direction": "downstream", "depth": 3}),
    ("/lineage/open.a/downstream", {"depth": 3, "fanout": 5}),
    ("/lineage/open.a/downstream", {"depth": 3, "as_of": "2100-01-01T00:00:00Z"}),
)


@dataclass
class Caller:
    client: httpx.Client
    user_id: str


@pytest.fixture
def caller(
    admin: httpx.Client, live: LiveServer, make_settings: Callable[..., Settings]
) -> Iterator[Caller]:
    """`open.a -> vaultasset.mid -> open.b`, the middle one in the private `vaultdom`
    owned by `vaultkeepers`; a global viewer in no team, holding a read token."""
    for team in ("vaultkeepers", "readers"):
        assert admin.put(f"/teams/{team}", json={}).status_code == 201
    domain = {
        "owner_team": "vaultkeepers",
        "private": True,
        "rules": [{"kind": "namespace", "value": SECRET}],
    }
    assert admin.put("/domains/vaultdom", json=domain).status_code == 201
    for asset in ("open.a", "vaultasset.mid", "open.b"):
        made = admin.post("/assets", json={"id": asset, "name": f"{asset} name", "type": "table"})
        assert made.status_code == 201, made.text
    for source, target in (("open.a", "vaultasset.mid"), ("vaultasset.mid", "open.b")):
        assert admin.post("/lineage", json={"source": source, "target": target}).status_code == 201
    user = make_user(admin, "olga", "viewer")
    client = client_for(live, token_of(make_settings(), user["id"], "read"))
    yield Caller(client, user["id"])
    client.close()


def _sees_the_secret(caller: Caller) -> bool:
    """Whether every traversal shows the private asset (False: every one hides it)."""
    seen = set()
    for path, params in WALKS:
        answer = caller.client.get(path, params=params)
        assert answer.status_code == 200, answer.text
        seen.add(SECRET in answer.text)
        ids = [n["id"] for n in answer.json()["nodes"]]
        assert "open.b" in ids and ("redacted:1" in ids) != (SECRET in answer.text)
    assert len(seen) == 1, "the traversals disagree"
    return seen.pop()


def test_joining_and_leaving_the_owning_team_counts_on_the_next_traversal(
    caller: Caller, admin: httpx.Client
) -> None:
    assert not _sees_the_secret(caller)  # the process now remembers the token
    member = f"/teams/vaultkeepers/members/{caller.user_id}"
    assert admin.put(member).status_code == 204
    assert _sees_the_secret(caller)
    assert admin.delete(member).status_code == 204
    assert not _sees_the_secret(caller)


def test_a_grant_given_and_taken_back_counts_on_the_next_traversal(
    caller: Caller, admin: httpx.Client
) -> None:
    assert admin.put(f"/teams/readers/members/{caller.user_id}").status_code == 204
    assert not _sees_the_secret(caller)
    domain = {
        "owner_team": "vaultkeepers",
        "private": True,
        "rules": [{"kind": "namespace", "value": SECRET}],
    }
    granted = {**domain, "grants": [{"team": "readers", "role": "viewer"}]}
    assert admin.put("/domains/vaultdom", json=granted).status_code == 200
    assert _sees_the_secret(caller)
    assert admin.put("/domains/vaultdom", json=domain).status_code == 200
    assert not _sees_the_secret(caller)


def test_a_global_role_change_counts_on_the_next_traversal(
    caller: Caller, admin: httpx.Client
) -> None:
    make_user(admin, "spare", "admin")  # olga may be demoted: she is not the last admin
    assert not _sees_the_secret(caller)
    user = f"/users/{caller.user_id}"
    assert admin.patch(user, json={"role": "admin"}).status_code == 200
    assert _sees_the_secret(caller)
    assert admin.patch(user, json={"role": "viewer"}).status_code == 200
    assert not _sees_the_secret(caller)
