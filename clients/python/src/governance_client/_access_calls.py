"""What the team and domain operations send and how their answers are read, shared
by both clients. Writes need the admin scope (a domain's own admins may also replace
it); reads need the read scope."""

from __future__ import annotations

from collections.abc import Sequence

from governance_client._call import (
    Call,
    delete,
    encode_segment,
    fields,
    get,
    item_path,
    no_body,
    replace,
)
from governance_client.types import Domain, DomainGrant, DomainRule, Items, Team

TEAMS = "/teams"
DOMAINS = "/domains"


# -- teams ------------------------------------------------------------------


def put_team(
    team_id: str, display_name: str | None, idp_groups: Sequence[str] | None
) -> Call[Team]:
    groups = None if idp_groups is None else list(idp_groups)
    return replace(
        item_path(TEAMS, team_id), fields(display_name=display_name, idp_groups=groups), None
    )


def list_teams() -> Call[Items[Team]]:
    return get(TEAMS)


def get_team(team_id: str) -> Call[Team]:
    return get(item_path(TEAMS, team_id))


def delete_team(team_id: str) -> Call[None]:
    return delete(item_path(TEAMS, team_id))


def member_path(team_id: str, user_id: str) -> str:
    return item_path(TEAMS, team_id, "/members/" + encode_segment(user_id))


def add_team_member(team_id: str, user_id: str) -> Call[None]:
    return Call("PUT", member_path(team_id, user_id), no_body)


def remove_team_member(team_id: str, user_id: str) -> Call[None]:
    return delete(member_path(team_id, user_id))


# -- domains ----------------------------------------------------------------


def put_domain(
    domain_id: str,
    *,
    owner_team: str,
    rules: Sequence[DomainRule] | None,
    grants: Sequence[DomainGrant] | None,
    private: bool | None,
    display_name: str | None,
    description: str | None,
) -> Call[Domain]:
    body = fields(
        display_name=display_name,
        description=description,
        private=private,
        owner_team=owner_team,
        rules=None if rules is None else [dict(r) for r in rules],
        grants=None if grants is None else [dict(g) for g in grants],
    )
    return replace(item_path(DOMAINS, domain_id), body, None)


def list_domains() -> Call[Items[Domain]]:
    return get(DOMAINS)


def get_domain(domain_id: str) -> Call[Domain]:
    return get(item_path(DOMAINS, domain_id))


def delete_domain(domain_id: str) -> Call[None]:
    return delete(item_path(DOMAINS, domain_id))
