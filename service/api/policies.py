"""/api/v1/policies: policies, their violations, and evaluation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service import clock
from service.api import deps
from service.api.versioned import Text, Versioned, never_creates
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.errors import validation_error
from service.http import json_response, path_param, read_json
from service.models.policies import (
    KINDS,
    EvaluationSummary,
    Policy,
    PolicyFields,
    PolicyPage,
    PolicyReplace,
    Violations,
)
from service.models.validation import validate
from service.openapi import PAGING, Doc, Param
from service.params import Params
from service.routing import Replay, Route, bearer
from service.settings import Limits
from service.store import policies as store

BASE = "/api/v1/policies"


def _walk_within_limits(limits: Limits, document: Mapping[str, Any]) -> None:
    """A write may ask a policy to walk at most as deep as the deployment does: a
    `params.max_depth` above GOVERNANCE_MAX_LINEAGE_DEPTH is 422 at it (the model holds
    it to a positive integer; evaluation walks no deeper either way)."""
    params = document.get("params")
    depth = params.get("max_depth") if isinstance(params, dict) else None
    most = limits.max_lineage_depth
    if isinstance(depth, int | float) and depth > most:
        loc = ("body", "params", "max_depth")
        raise validation_error(loc, f"max_depth must be at most {most}", "out_of_range")


# Each write is announced (`policy.*`); the evaluator re-evaluates from those events.
POLICIES = Versioned(
    base=BASE,
    param="policy_id",
    name="policy",
    tag="policies",
    model=Policy,
    fields=PolicyFields,
    replace=PolicyReplace,
    get=store.get,
    put=never_creates(store.replace),
    patch=store.patch,
    delete=store.delete,
    within_limits=_walk_within_limits,
)


async def list_policies(request: Request) -> Response:
    paging = deps.paging(request)
    params = Params(request)
    kind = params.text("kind")
    if kind is not None:
        kind = params.choice("kind", KINDS, "require_owner")
    rows = await store.page(
        deps.graph(request), kind, params.flag("enabled"), paging.after, paging.fetch
    )
    return paging.respond(rows, key=lambda p: p.id)


async def create_policy(request: Request) -> Response:
    document = await read_json(request)
    fields = validate(PolicyFields, document)
    _walk_within_limits(deps.settings(request).limits, document)
    policy = await store.create(deps.graph(request), fields, deps.actor(request))
    return POLICIES.answer(policy, created=True)


async def list_violations(request: Request) -> Response:
    paging = deps.paging(request)
    policy, rows = await store.violations(
        deps.graph(request),
        path_param(request, "policy_id"),
        paging.after,
        paging.fetch,
        domain_rules.readable_private(deps.principal(request)),
    )
    page = rows[: paging.limit]
    more = len(rows) > paging.limit
    next_cursor = paging.cursor_after(page[-1].asset_id) if more else None
    answer = Violations(
        policy_id=policy.id,
        evaluated_at=policy.evaluated_at,
        violations=page,
        next_cursor=next_cursor,
    )
    return json_response(answer, headers=paging.link(next_cursor))


async def evaluate_all(request: Request) -> Response:
    """Synchronous: evaluates every policy now and answers what changed."""
    graph = deps.graph(request)
    settings = deps.settings(request)
    depth, timeout_s = settings.limits.max_lineage_depth, settings.policies.timeout_s
    started = clock.now_iso()
    results = []
    for policy_id in await store.policy_ids(graph):
        outcome = await store.evaluate(graph, policy_id, depth, timeout_s)
        if outcome is not None:
            results.append(outcome)
    return json_response(EvaluationSummary(evaluated_at=started, policies=results))


routes = [
    Route(BASE, list_policies, methods=["GET"], name="list_policies", policy=bearer(Scope.READ)),
    Route(
        BASE,
        create_policy,
        methods=["POST"],
        name="create_policy",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT),
    ),
    Route(
        BASE + "/evaluate",
        evaluate_all,
        methods=["POST"],
        name="evaluate_policies",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT),
    ),
    *POLICIES.routes(),
    Route(
        POLICIES.path + "/violations",
        list_violations,
        methods=["GET"],
        name="list_policy_violations",
        policy=bearer(Scope.READ),
    ),
]

_KINDS_HELP = (
    "Kinds: `require_owner` and `require_description` (params `{}`), `require_quality_rule` "
    "(`{types?}`), `tag_propagation` (`{tag, max_depth?}`: every governed asset downstream of "
    "an asset with the tag must carry it), `restricted_flow` (`{to: selector, max_depth?}`: no "
    "governed asset may flow into a `to` asset within max_depth hops). `max_depth` is at most "
    "GOVERNANCE_MAX_LINEAGE_DEPTH, and absent it is that depth. The selector governs "
    "assets by `type`, `platform` (a value or a list: any of), `tags` (all of) and "
    "`id_prefix`; placeholders are never governed. Invalid kind, selector or params: 422 "
    "naming the field. After a change, policies are re-evaluated in the background."
)
docs = {
    "list_policies": Doc(
        "List policies",
        "policies",
        params=(
            *PAGING,
            Param("kind", schema={"enum": list(KINDS)}),
            Param("enabled", schema={"type": "boolean"}),
        ),
        responses={200: PolicyPage},
        errors=(422,),
    ),
    "create_policy": Doc(
        "Create a policy",
        "policies",
        description=_KINDS_HELP + " Emits `policy.created`. Accepts Idempotency-Key.",
        body=PolicyFields,
        responses={201: Policy},
        errors=(413, 415, 422),
    ),
    **POLICIES.docs(
        get=Text("Get a policy"),
        put=Text(
            "Replace a policy",
            "Policy ids are made by the service, so PUT never creates (404). Read-only fields "
            "may be sent back as read. An unchanged policy keeps its version. " + _KINDS_HELP,
        ),
        patch=Text(
            "Change a policy (JSON Merge Patch)",
            "The patched policy is validated whole, params against its kind.",
        ),
        delete=Text(
            "Delete a policy", "Its open violations are announced as `policy.violation.resolved`."
        ),
    ),
    "list_policy_violations": Doc(
        "A policy's open violations",
        "policies",
        description="As stored by the latest evaluation (`evaluated_at`; null before the first). "
        "Ordered by asset id and paged with `limit`/`cursor` like every list. The violations "
        "of assets in private domains where the caller holds no role are left out.",
        params=PAGING,
        responses={200: Violations},
        errors=(404, 422),
    ),
    "evaluate_policies": Doc(
        "Evaluate every policy now",
        "policies",
        description="Synchronous. Violations that open or resolve are announced once each "
        "(`policy.violation.opened|resolved`, alerts); a disabled policy's violations resolve.",
        responses={200: EvaluationSummary},
        errors=(),
    ),
}
