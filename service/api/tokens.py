"""/api/v1/tokens: API tokens are made, listed and revoked; scope admin for every
operation."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access.scopes import Scope
from service.http import (
    created_with_secret,
    json_response,
    path_param,
    quote_segment,
    read_json,
)
from service.models.tokens import Token, TokenCreate, TokenCreated, TokenPage
from service.models.validation import validate
from service.openapi import PAGING, Doc
from service.routing import Replay, Route, bearer
from service.store import tokens as store

BASE = "/api/v1/tokens"


async def list_tokens(request: Request) -> Response:
    paging = deps.paging(request)
    rows = await store.page(deps.graph(request), paging.after, paging.fetch)
    return paging.respond(rows, key=lambda t: t.id)


async def create_token(request: Request) -> Response:
    body = validate(TokenCreate, await read_json(request))
    caller = deps.principal(request)
    created = await store.create(
        deps.graph(request), body, created_by=caller.actor, user_id=caller.user_id
    )
    return created_with_secret(created, f"{BASE}/{quote_segment(created.id)}")


async def get_token(request: Request) -> Response:
    return json_response(await store.get(deps.graph(request), path_param(request, "token_id")))


async def revoke_token(request: Request) -> Response:
    await store.revoke(deps.graph(request), path_param(request, "token_id"), deps.actor(request))
    return Response(status_code=204)


routes = [
    Route(BASE, list_tokens, methods=["GET"], name="list_tokens", policy=bearer(Scope.ADMIN)),
    Route(
        BASE,
        create_token,
        methods=["POST"],
        name="create_token",
        policy=bearer(Scope.ADMIN, replay=Replay.SECRET),
    ),
    Route(
        BASE + "/{token_id}",
        get_token,
        methods=["GET"],
        name="get_token",
        policy=bearer(Scope.ADMIN),
    ),
    Route(
        BASE + "/{token_id}",
        revoke_token,
        methods=["DELETE"],
        name="revoke_token",
        policy=bearer(Scope.ADMIN),
    ),
]

docs = {
    "list_tokens": Doc(
        "List API tokens (metadata only)",
        "tokens",
        params=PAGING,
        responses={200: TokenPage},
        errors=(422,),
    ),
    "create_token": Doc(
        "Create an API token",
        "tokens",
        description="The `token` secret is in this answer only.",
        body=TokenCreate,
        responses={201: TokenCreated},
        errors=(415, 422),
    ),
    "get_token": Doc("Get a token's metadata", "tokens", responses={200: Token}, errors=(404,)),
    "revoke_token": Doc(
        "Revoke a token",
        "tokens",
        description="Effective on the next request.",
        responses={204: None},
        errors=(404,),
    ),
}
