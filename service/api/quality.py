"""/api/v1/quality/rules (CONTRACT §6): reading rules, including those made from dbt
tests. Creating, changing and results come with the quality-rules work."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service.api import deps
from service.domain.preconditions import etag
from service.http import json_response, path_param
from service.models.quality import QualityRule, QualityRulePage
from service.openapi import PAGING, Doc, Param
from service.params import Params
from service.store import quality as store

BASE = "/api/v1/quality/rules"
STATUSES = ("unknown", "passing", "failing", "error")


async def list_rules(request: Request) -> Response:
    paging = deps.paging(request)
    params = Params(request)
    status = params.text("status")
    if status is not None:
        status = params.choice("status", STATUSES, "unknown")
    rows = await store.page(
        deps.graph(request),
        params.text("asset_id", 512),
        status,
        params.text("type"),
        paging.after,
        paging.fetch,
    )
    return paging.respond(rows, key=lambda r: r.id)


async def get_rule(request: Request) -> Response:
    rule = await store.get(deps.graph(request), path_param(request, "rule_id"))
    return json_response(rule, headers={"ETag": etag(rule.version)})


routes = [
    Route(BASE, list_rules, methods=["GET"], name="list_quality_rules"),
    Route(BASE + "/{rule_id}", get_rule, methods=["GET"], name="get_quality_rule"),
]

docs = {
    "list_quality_rules": Doc(
        "List quality rules",
        "quality",
        params=(
            *PAGING,
            Param("asset_id"),
            Param("status", schema={"enum": list(STATUSES)}),
            Param("type"),
        ),
        responses={200: QualityRulePage},
        errors=(422,),
    ),
    "get_quality_rule": Doc(
        "Get a quality rule", "quality", responses={200: QualityRule}, errors=(404,)
    ),
}
