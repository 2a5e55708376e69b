"""/api/v1/users (scope admin) and /api/v1/me (any valid token)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access.scopes import Scope, scopes_allowed_by
from service.errors import FieldError, Unprocessable
from service.http import (
    JSON,
    MERGE_PATCH_JSON,
    json_response,
    path_param,
    quote_segment,
    read_json,
    read_merge_patch,
)
from service.models.users import Me, User, UserCreate, UserPage, UserPatch
from service.models.validation import validate
from service.openapi import PAGING, Doc
from service.routing import Replay, Route, bearer
from service.store import tokens as token_store
from service.store import users as store

BASE = "/api/v1/users"
# Fields a merge patch may set to null (which removes them).
NULLABLE = frozenset({"display_name"})


async def list_users(request: Request) -> Response:
    paging = deps.paging(request)
    rows = await store.page(deps.graph(request), paging.after, paging.fetch)
    return paging.respond(rows, key=lambda u: u.id)


async def create_user(request: Request) -> Response:
    body = validate(UserCreate, await read_json(request))
    user = await store.create(deps.graph(request), body, actor=deps.actor(request))
    return json_response(user, 201, {"Location": f"{BASE}/{quote_segment(user.id)}"})


async def get_user(request: Request) -> Response:
    return json_response(await store.get(deps.graph(request), path_param(request, "user_id")))


async def patch_user(request: Request) -> Response:
    document = await read_merge_patch(request, UserPatch)
    patch, clear = parse_patch(document)
    user = await store.update(
        deps.graph(request),
        path_param(request, "user_id"),
        patch,
        clear,
        actor=deps.actor(request),
    )
    return json_response(user)


def parse_patch(document: dict[str, Any]) -> tuple[UserPatch, frozenset[str]]:
    """The patch (of known fields only, as `read_merge_patch` checked) and the fields
    it clears; null is refused where a field cannot be empty."""
    wrong = [k for k, v in document.items() if v is None and k not in NULLABLE]
    if wrong:
        raise Unprocessable(
            f"Invalid request: {', '.join(wrong)}.",
            errors=[FieldError(("body", k), "must not be null", "none_forbidden") for k in wrong],
        )
    patch = validate(UserPatch, {k: v for k, v in document.items() if v is not None})
    return patch, frozenset(k for k, v in document.items() if v is None)


async def delete_user(request: Request) -> Response:
    await store.delete(
        deps.graph(request), path_param(request, "user_id"), actor=deps.actor(request)
    )
    return Response(status_code=204)


async def me(request: Request) -> Response:
    caller = deps.principal(request)
    graph = deps.graph(request)
    token = await token_store.get(graph, caller.token_id)
    user = await store.get(graph, caller.user_id) if caller.user_id else None
    return json_response(
        Me(
            token=token,
            user=user,
            user_id=caller.user_id,
            username=user.username if user else None,
            role=caller.role,
            scopes=scopes_allowed_by(caller.scope),
            teams=list(caller.teams),
            domain_roles=dict(caller.domain_roles),
        )
    )


routes = [
    Route(BASE, list_users, methods=["GET"], name="list_users", policy=bearer(Scope.ADMIN)),
    Route(
        BASE,
        create_user,
        methods=["POST"],
        name="create_user",
        policy=bearer(Scope.ADMIN, replay=Replay.KEPT),
    ),
    Route(
        BASE + "/{user_id}", get_user, methods=["GET"], name="get_user", policy=bearer(Scope.ADMIN)
    ),
    Route(
        BASE + "/{user_id}",
        patch_user,
        methods=["PATCH"],
        name="patch_user",
        policy=bearer(Scope.ADMIN),
    ),
    Route(
        BASE + "/{user_id}",
        delete_user,
        methods=["DELETE"],
        name="delete_user",
        policy=bearer(Scope.ADMIN),
    ),
    Route("/api/v1/me", me, methods=["GET"], name="get_me", policy=bearer(Scope.READ)),
]

_PATCH_TYPES = (MERGE_PATCH_JSON, JSON)
docs = {
    "list_users": Doc(
        "List users", "users", params=PAGING, responses={200: UserPage}, errors=(422,)
    ),
    "create_user": Doc(
        "Create a user",
        "users",
        description="Roles map to token scopes: viewer → read, editor → write, admin → admin. "
        "The password is stored as an Argon2id hash and never returned. A password that is "
        "shorter than 12 or longer than 256 characters, only whitespace, contains the "
        "username (ignoring case) or is one of the 30,000 most common passwords is 422 "
        "`weak_password`, its `detail` naming the rule. A username is unique ignoring case "
        "(409 `already_exists`).",
        body=UserCreate,
        responses={201: User},
        errors=(409, 415, 422),
    ),
    "get_user": Doc("Get a user", "users", responses={200: User}, errors=(404,)),
    "patch_user": Doc(
        "Change a user's role, display name, password or disabled flag",
        "users",
        description="JSON Merge Patch. Demoting a user lowers what their tokens may do on "
        "the next request; disabling ends their sessions and makes their tokens 401; a new "
        "password ends their sessions (tokens stay) and is held to the same rules as at "
        "creation (422 `weak_password`). The last enabled admin cannot be "
        "demoted or disabled (409 `last_admin`).",
        body=UserPatch,
        body_media_types=_PATCH_TYPES,
        responses={200: User},
        errors=(404, 409, 415, 422),
    ),
    "delete_user": Doc(
        "Delete a user",
        "users",
        description="Their sessions end and their tokens stop working. The last enabled "
        "admin cannot be deleted (409 `last_admin`).",
        responses={204: None},
        errors=(404, 409),
    ),
    "get_me": Doc(
        "The calling token and its user",
        "users",
        description="Any valid token. `user` is null for a token made by `governance token "
        "create`. `role` is the global role, `domain_roles` the best role per domain through "
        "the user's teams, and `scopes` what the token may do now: its own scopes capped by "
        "the best of those roles (a global viewer who edits one domain may hold a write "
        "token, whose writes succeed only inside that domain).",
        responses={200: Me},
    ),
}
