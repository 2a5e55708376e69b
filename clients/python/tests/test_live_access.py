"""Teams, domains, /me, the asset ``domain`` field and filter, ``domain_forbidden`` and
redacted traversal nodes against a running service (GOVERNANCE_URL, GOVERNANCE_TOKEN with
the admin scope), as `clients/harness.py python` provides. Ids are unique per test: the
database is shared with the other clients' suites."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator

import pytest

from governance_client import (
    Client,
    ConflictError,
    DomainForbiddenError,
    NotFoundError,
    ValidationError,
    is_redacted,
)

pytestmark = pytest.mark.live


@pytest.fixture
def slug() -> str:
    """A unique team or domain id (lower case, digits, ``-``)."""
    return f"py-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def cleanup(client: Client) -> Iterator[list[tuple[str, str]]]:
    """``(kind, id)`` pairs to delete after the test: domains first, then teams."""
    made: list[tuple[str, str]] = []
    yield made
    for kind, item in sorted(made, key=lambda m: m[0] != "domain"):
        with contextlib.suppress(NotFoundError):
            (client.domains if kind == "domain" else client.teams).delete(item)


@pytest.fixture
def token_of(client: Client, url: str) -> Iterator[Callable[[str], Client]]:
    """``token_of(scope)``: a client holding a new command-line-style token of that scope."""
    made: list[tuple[str, Client]] = []

    def make(scope: str) -> Client:
        created = client.tokens.create(f"py-{scope}-{uuid.uuid4().hex[:8]}", scopes=[scope])
        other = Client(base_url=url, token=created["token"], max_retries=0)
        made.append((created["id"], other))
        return other

    yield make
    for token_id, other in made:
        other.close()
        client.tokens.revoke(token_id)


def test_a_team_is_put_read_listed_given_members_and_deleted(
    client: Client, slug: str, prefix: str, cleanup: list[tuple[str, str]]
) -> None:
    created = client.with_raw_response.teams.put(slug, display_name="Finance", idp_groups=["fin"])
    cleanup.append(("team", slug))
    assert created.status_code == 201
    team = created.parse()
    assert (team["id"], team["display_name"], team["idp_groups"], team["members"]) == (
        slug, "Finance", ["fin"], []
    )  # fmt: skip
    replaced = client.with_raw_response.teams.put(slug, display_name="Money")
    assert (replaced.status_code, replaced.parse()["idp_groups"]) == (200, [])
    assert slug in {t["id"] for t in client.teams.list()["items"]}

    user = client.users.create(
        f"{prefix}-ana", password="correct horse battery staple", role="viewer"
    )
    try:
        client.teams.add_member(slug, user["id"])
        client.teams.add_member(slug, user["id"])  # again: no change
        assert client.teams.get(slug)["members"] == [user["id"]]
        client.teams.remove_member(slug, user["id"])
        assert client.teams.get(slug)["members"] == []
        with pytest.raises(NotFoundError):
            client.teams.add_member(slug, "usr_nobody")
    finally:
        client.users.delete(user["id"])

    client.teams.delete(slug)
    with pytest.raises(NotFoundError):
        client.teams.get(slug)
    with pytest.raises(ValidationError) as bad:
        client.teams.put("Not A Slug")
    assert bad.value.errors[0]["loc"] == ["path", "team_id"]


def test_a_domain_holds_the_assets_its_rules_pick(
    client: Client, slug: str, prefix: str, cleanup: list[tuple[str, str]]
) -> None:
    client.teams.put(slug)
    cleanup.append(("team", slug))
    audit = f"{slug}-audit"
    client.teams.put(audit)
    cleanup.append(("team", audit))
    inside, outside = f"{prefix}.inside", f"other-{prefix}"
    client.assets.create(inside, name="in", type="table")
    client.assets.create(outside, name="out", type="table")
    try:
        created = client.with_raw_response.domains.put(
            slug,
            owner_team=slug,
            rules=[{"kind": "namespace", "value": prefix}],
            grants=[{"team": audit, "role": "viewer"}],
            display_name="Ledger",
        )
        cleanup.append(("domain", slug))
        assert created.status_code == 201
        domain = client.domains.get(slug)
        assert (domain["owner_team"], domain["private"], domain["asset_count"]) == (slug, False, 1)
        assert {"team": audit, "role": "viewer"} in domain["grants"]
        assert slug in {d["id"] for d in client.domains.list()["items"]}
        assert client.assets.get(inside)["domain"] == slug
        assert client.assets.get(outside).get("domain") is None
        assert [a["id"] for a in client.assets.iter(domain=slug)] == [inside]

        with pytest.raises(ConflictError) as owns:
            client.teams.delete(slug)
        assert owns.value.code == "team_owns_domains"
        with pytest.raises(ValidationError):
            client.domains.put(f"{slug}-x", owner_team=f"{slug}-nobody")

        client.domains.delete(slug)
        assert client.assets.get(inside).get("domain") is None
        with pytest.raises(NotFoundError):
            client.domains.get(slug)
    finally:
        client.assets.delete(outside)


def test_me_answers_the_role_scopes_teams_and_domain_roles(client: Client) -> None:
    me = client.me()
    assert "admin" in me["scopes"]
    assert me["role"] == "admin"
    assert isinstance(me["teams"], list)
    assert isinstance(me["domain_roles"], dict)


def test_a_write_outside_the_caller_s_domains_is_refused_listing_the_assets(
    client: Client,
    slug: str,
    prefix: str,
    cleanup: list[tuple[str, str]],
    token_of: Callable[[str], Client],
) -> None:
    client.teams.put(slug)
    cleanup.append(("team", slug))
    asset = f"{prefix}.guarded"
    client.assets.create(asset, name="g", type="table")
    client.domains.put(slug, owner_team=slug, rules=[{"kind": "asset", "value": asset}])
    cleanup.append(("domain", slug))
    writer = token_of("write")
    with pytest.raises(DomainForbiddenError) as refused:
        writer.assets.patch(asset, {"description": "not mine"})
    assert refused.value.assets == [{"id": asset, "domain": slug}]
    assert refused.value.assets_count == 1
    assert client.assets.get(asset)["description"] is None, "nothing was written"


def test_a_private_domain_s_nodes_are_redacted_in_a_traversal(
    client: Client,
    slug: str,
    prefix: str,
    cleanup: list[tuple[str, str]],
    token_of: Callable[[str], Client],
) -> None:
    client.teams.put(slug)
    cleanup.append(("team", slug))
    root, hidden, beyond = (f"{prefix}.{n}" for n in ("root", "hidden", "beyond"))
    client.lineage.bulk([{"source": root, "target": hidden}, {"source": hidden, "target": beyond}])
    client.domains.put(
        slug, owner_team=slug, private=True, rules=[{"kind": "asset", "value": hidden}]
    )
    cleanup.append(("domain", slug))
    reader = token_of("read")
    graph = reader.lineage.downstream(root, depth=3)
    stand_ins = [n for n in graph["nodes"] if is_redacted(n)]
    assert [(n["team"], n["distance"]) for n in stand_ins] == [(slug, 1)]
    assert graph["redacted"] == 1
    ids = {n["id"] for n in graph["nodes"]}
    assert hidden not in ids
    assert beyond in ids, "the path goes on past the stand-in"
    stand_in = stand_ins[0]["id"]
    assert {(e["source"], e["target"]) for e in graph["edges"]} == {
        (root, stand_in),
        (stand_in, beyond),
    }
    with pytest.raises(NotFoundError):
        reader.assets.get(hidden)
    seen = client.lineage.downstream(root, depth=3)
    assert hidden in {n["id"] for n in seen["nodes"]}
    assert seen.get("redacted", 0) == 0
