"""/api/v1/column-tags/{tag}: the rule saying which mapping kinds stop a column tag."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access.scopes import Scope
from service.errors import validation_error
from service.http import json_response, path_param, read_json
from service.models.assets import MAX_TAG_LENGTH
from service.models.columns import ColumnTagRule, ColumnTagRuleIn
from service.models.validation import validate
from service.openapi import Doc
from service.routing import Route, bearer
from service.store import column_tags as store

BASE = "/api/v1/column-tags/{tag}"


def _tag(request: Request) -> str:
    """Tags are compared lower-cased, as the asset's `columns[].tags` store them."""
    tag = path_param(request, "tag")
    if not 1 <= len(tag) <= MAX_TAG_LENGTH:
        raise validation_error(("path", "tag"), f"a tag is 1-{MAX_TAG_LENGTH} characters")
    return tag.lower()


async def get_rule(request: Request) -> Response:
    return json_response(await store.rule(deps.graph(request), _tag(request)))


async def put_rule(request: Request) -> Response:
    tag = _tag(request)
    body = validate(ColumnTagRuleIn, await read_json(request))
    saved = await store.set_rule(deps.graph(request), tag, body.stops, deps.actor(request))
    return json_response(saved)


routes = [
    Route(BASE, get_rule, methods=["GET"], name="get_column_tag_rule", policy=bearer(Scope.READ)),
    Route(BASE, put_rule, methods=["PUT"], name="put_column_tag_rule", policy=bearer(Scope.WRITE)),
]

_RULE = (
    "Which mapping kinds stop a column tag on its way downstream along column lineage "
    "(docs/column-classification.md). Without a rule of its own a tag stops at `masking`, "
    "`aggregation` and `indirect` mappings (`default`: true)."
)
docs = {
    "get_column_tag_rule": Doc(
        "A column tag's propagation rule",
        "assets",
        description=_RULE,
        responses={200: ColumnTagRule},
        errors=(422,),
    ),
    "put_column_tag_rule": Doc(
        "Set a column tag's propagation rule",
        "assets",
        description=_RULE + " Setting a different rule recomputes where the tag is inherited, "
        "everywhere, in the same transaction (`column.tag.inherited` / `column.tag.lost` "
        "events for what changed); the same rule again changes nothing. Idempotent.",
        body=ColumnTagRuleIn,
        responses={200: ColumnTagRule},
        errors=(413, 415, 422),
    ),
}
