"""/api/v1/column-tags/{tag}: the rule saying which mapping kinds stop a column tag."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.errors import InsufficientScope, validation_error
from service.http import json_response, path_param, read_json
from service.models.assets import MAX_TAG_LENGTH
from service.models.columns import ColumnTagRule, ColumnTagRuleIn
from service.models.validation import validate
from service.openapi import Doc
from service.routing import Route, bearer
from service.store import column_tags as store
from service.store import domain_guard

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
    graph, principal = deps.graph(request), deps.principal(request)
    if not domain_rules.sees_everything(principal):
        touched = await store.rule_assets(graph, tag, body.stops)
        if not touched and principal.global_scope < Scope.WRITE:
            raise InsufficientScope(
                "A rule for a tag no asset holds touches no domain: it needs the global "
                "editor role."
            )
        await domain_guard.require_held_writable(graph, principal, touched)
    saved = await store.set_rule(deps.graph(request), tag, body.stops, deps.actor(request))
    return json_response(saved)


routes = [
    Route(BASE, get_rule, methods=["GET"], name="get_column_tag_rule", policy=bearer(Scope.READ)),
    Route(
        BASE,
        put_rule,
        methods=["PUT"],
        name="put_column_tag_rule",
        policy=bearer(Scope.WRITE, per_domain=True),
    ),
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
        "events for what changed); the same rule again changes nothing. Idempotent. The rule "
        "changes the classification of every asset holding the tag, inheriting it now, or "
        "downstream of a holder along mappings the new rule lets it through: the caller must "
        "be allowed to write each of them (inside a domain, by its role in that domain; "
        "outside every domain, by its global role), else 403 `domain_forbidden` listing "
        "them and nothing changes. A rule for a tag no asset holds needs the global editor "
        "role (403 `insufficient_scope`).",
        body=ColumnTagRuleIn,
        responses={200: ColumnTagRule},
        errors=(413, 415, 422),
    ),
}
