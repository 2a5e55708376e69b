"""/api/v1/teams: named groups of users that own domains and hold roles in them.
Reads need the read scope; changes are for global admins."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access.scopes import Scope
from service.errors import Forbidden, validation_error
from service.http import json_response, path_param, quote_segment, read_json
from service.models.teams import SLUG_PATTERN, Team, TeamList, TeamPut, is_slug
from service.models.validation import validate
from service.openapi import Doc
from service.routing import Route, bearer
from service.store import teams as store

BASE = "/api/v1/teams"


def slug(request: Request, name: str) -> str:
    """A team or domain id from the path: 422 naming it when it is not a slug."""
    value = path_param(request, name)
    if not is_slug(value):
        raise validation_error(
            ("path", name), f"must match {SLUG_PATTERN} (lower case, digits, - and _)"
        )
    return value


def require_global_admin(request: Request) -> None:
    """Teams are changed by global admins only, whatever a domain role allows."""
    if deps.principal(request).global_scope < Scope.ADMIN:
        raise Forbidden("Only a global admin may do this.", code="forbidden")


async def put_team(request: Request) -> Response:
    require_global_admin(request)
    team_id = slug(request, "team_id")
    body = validate(TeamPut, await read_json(request))
    team, created = await store.put(deps.graph(request), team_id, body, deps.actor(request))
    headers = {"Location": f"{BASE}/{quote_segment(team.id)}"} if created else None
    return json_response(team, 201 if created else 200, headers)


async def list_teams(request: Request) -> Response:
    return json_response(TeamList(items=await store.all_teams(deps.graph(request))))


async def get_team(request: Request) -> Response:
    return json_response(await store.get(deps.graph(request), slug(request, "team_id")))


async def delete_team(request: Request) -> Response:
    require_global_admin(request)
    await store.delete(deps.graph(request), slug(request, "team_id"), deps.actor(request))
    return Response(status_code=204)


async def _membership(request: Request, member: bool) -> Response:
    require_global_admin(request)
    team_id = slug(request, "team_id")
    user_id = path_param(request, "user_id")
    await store.set_member(deps.graph(request), team_id, user_id, member, deps.actor(request))
    return Response(status_code=204)


async def put_member(request: Request) -> Response:
    return await _membership(request, True)


async def delete_member(request: Request) -> Response:
    return await _membership(request, False)


ONE = BASE + "/{team_id}"
MEMBER = ONE + "/members/{user_id}"
routes = [
    Route(BASE, list_teams, methods=["GET"], name="list_teams", policy=bearer(Scope.READ)),
    Route(ONE, get_team, methods=["GET"], name="get_team", policy=bearer(Scope.READ)),
    Route(ONE, put_team, methods=["PUT"], name="put_team", policy=bearer(Scope.ADMIN)),
    Route(ONE, delete_team, methods=["DELETE"], name="delete_team", policy=bearer(Scope.ADMIN)),
    Route(MEMBER, put_member, methods=["PUT"], name="put_team_member", policy=bearer(Scope.ADMIN)),
    Route(
        MEMBER,
        delete_member,
        methods=["DELETE"],
        name="delete_team_member",
        policy=bearer(Scope.ADMIN),
    ),
]

_ID_RULE = "A team id is a slug: `^[a-z0-9][a-z0-9_-]{0,62}$` (else 422 naming `team_id`)."
docs = {
    "list_teams": Doc(
        "List teams", "teams", description="Every team, in id order.", responses={200: TeamList}
    ),
    "get_team": Doc("Get a team", "teams", responses={200: Team}, errors=(404, 422)),
    "put_team": Doc(
        "Create or replace a team",
        "teams",
        description="201 when the team is new, 200 when its display name and groups were "
        "replaced (members stay). A team listing `idp_groups` has its memberships set at "
        "each sign-in through the identity provider from the groups claim; one without is "
        "managed by hand. " + _ID_RULE,
        body=TeamPut,
        responses={201: Team, 200: Team},
        errors=(403, 415, 422),
    ),
    "delete_team": Doc(
        "Delete a team",
        "teams",
        description="Its memberships and grants go with it. 409 `team_owns_domains` while "
        "it owns a domain (the answer lists them in `domains`).",
        responses={204: None},
        errors=(403, 404, 409, 422),
    ),
    "put_team_member": Doc(
        "Add a user to a team",
        "teams",
        description="Idempotent. 404 `team_not_found` or `user_not_found`. A sign-in through "
        "the identity provider may remove it again when the team lists `idp_groups`.",
        responses={204: None},
        errors=(403, 404, 422),
    ),
    "delete_team_member": Doc(
        "Remove a user from a team",
        "teams",
        description="Idempotent. 404 `team_not_found` or `user_not_found`.",
        responses={204: None},
        errors=(403, 404, 422),
    ),
}
