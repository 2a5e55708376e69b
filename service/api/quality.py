"""/api/v1/quality: rules, their results, and dbt run results."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service import clock
from service.api import deps
from service.api.uploads import parse_off_loop, read_upload
from service.api.versioned import Text, Versioned, never_creates
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.domain.dbt.contents import ManifestError
from service.domain.dbt.run_results import RunResults, read_run_results
from service.errors import FieldError, ServiceError, Unprocessable
from service.http import JSON, MERGE_PATCH_JSON, json_response, path_param, read_json
from service.models.quality import (
    RULE_TYPES,
    DbtResultsSummary,
    QualityResult,
    QualityResultPage,
    QualityRule,
    QualityRuleFields,
    QualityRulePage,
    QualityRuleReplace,
    ResultCreate,
)
from service.models.validation import validate
from service.openapi import PAGING, Doc, Param
from service.params import Params
from service.routing import Body, Replay, Route, bearer
from service.store import domain_guard
from service.store import quality as store
from service.store.spool import parse_upload

BASE = "/api/v1/quality/rules"
DBT_RESULTS = "/api/v1/quality/results/dbt"
STATUSES = ("unknown", "passing", "failing", "error")
NEWEST = ["\uffff", "\uffff"]  # sorts after every [run_at, id]: the first page of a history


async def _named_asset(request: Request) -> str | None:
    """The asset a PUT or PATCH body moves the rule to, if it names one; a body that
    cannot be read names none here and is refused by the write itself."""
    if request.method not in ("PUT", "PATCH"):
        return None
    try:
        document = await read_json(request, accept=(JSON, MERGE_PATCH_JSON))
    except ServiceError:
        return None
    named = document.get("asset_id") if isinstance(document, dict) else None
    return named if isinstance(named, str) else None


async def _rules_writable(request: Request, rule_ids: list[str], also: str | None = None) -> None:
    """Rules are written where their assets lie: 403 `domain_forbidden` unless the
    caller may write each asset the rules name now (and `also`, an asset a rule is
    moved to). Rules that do not exist are left to the write's own 404."""
    graph = deps.graph(request)
    principal = deps.principal(request)
    if domain_rules.sees_everything(principal):
        return
    held = await store.assets_of(graph, rule_ids)
    assets = [*held.values(), *([also] if also else [])]
    await domain_guard.require_held_writable(graph, principal, assets)


async def _writable(request: Request, rule_id: str) -> None:
    await _rules_writable(request, [rule_id], await _named_asset(request))


async def _readable(request: Request, rule_id: str) -> None:
    """A rule on an asset the caller may not see (a private domain's) is absent too."""
    graph = deps.graph(request)
    principal = deps.principal(request)
    if domain_rules.sees_everything(principal):
        return
    held = await store.assets_of(graph, [rule_id])
    if rule_id in held and not await domain_guard.readable(graph, principal, held[rule_id]):
        raise store.not_found(rule_id)


RULES = Versioned(
    base=BASE,
    param="rule_id",
    name="quality_rule",
    tag="quality",
    model=QualityRule,
    fields=QualityRuleFields,
    replace=QualityRuleReplace,
    get=store.get,
    put=never_creates(store.replace),
    patch=store.patch,
    delete=store.delete,
    read_guard=_readable,
    write_guard=_writable,
)


def _caps(request: Request) -> store.Caps:
    limits = deps.settings(request).limits
    return store.Caps(history=limits.quality_history, impact_depth=limits.max_lineage_depth)


async def list_rules(request: Request) -> Response:
    paging = deps.paging(request)
    params = Params(request)
    status = params.text("status")
    if status is not None:
        status = params.choice("status", STATUSES, "unknown")
    rule_type = params.text("type")
    if rule_type is not None:
        rule_type = params.choice("type", RULE_TYPES, "custom")
    rows = await store.page(
        deps.graph(request),
        params.text("asset_id", 512),
        status,
        rule_type,
        paging.after,
        paging.fetch,
        readable=domain_rules.readable_private(deps.principal(request)),
    )
    return paging.respond(rows, key=lambda r: r.id)


async def create_rule(request: Request) -> Response:
    fields = validate(QualityRuleFields, await read_json(request))
    await domain_guard.require_held_writable(
        deps.graph(request), deps.principal(request), [fields.asset_id]
    )
    rule = await store.create(deps.graph(request), fields, deps.actor(request))
    return RULES.answer(rule, created=True)


async def record_result(request: Request) -> Response:
    rule_id = path_param(request, "rule_id")
    await _writable(request, rule_id)
    body = validate(ResultCreate, await read_json(request))
    entry = store.Entry(
        rule_id=rule_id,
        status=body.status,
        observed_value=body.observed_value,
        message=body.message,
        run_at=body.run_at or clock.now_iso(),
        source="api",
    )
    result = await store.record_one(deps.graph(request), entry, _caps(request), deps.actor(request))
    return json_response(result, status=201)


async def list_results(request: Request) -> Response:
    paging = deps.paging(request, first=NEWEST)
    await _readable(request, path_param(request, "rule_id"))
    rows = await store.results(
        deps.graph(request), path_param(request, "rule_id"), paging.after, paging.fetch
    )
    return paging.respond(rows, key=lambda r: [r.run_at, r.id])


def _invalid(msg: str, loc: tuple[str | int, ...] = ()) -> Unprocessable:
    return Unprocessable(
        f"Not a dbt run_results.json this service can read: {msg}",
        code="invalid_run_results",
        errors=[FieldError(("body", *loc), msg, "invalid_run_results")],
    )


def _read_results(raw: bytes, limit: int, gzipped: bool) -> RunResults:
    """CPU-bound: runs in a worker thread so the event loop keeps serving."""
    document = parse_upload(raw, limit, gzipped, _invalid)
    try:
        return read_run_results(document)
    except ManifestError as exc:
        raise _invalid(exc.msg, exc.loc) from exc


async def upload_dbt_results(request: Request) -> Response:
    raw, gzipped = await read_upload(request, "run_results.json")
    limit = deps.settings(request).limits.max_manifest_bytes
    run = await parse_off_loop(request, gzipped, _read_results, raw, limit, gzipped)
    source = f"dbt:{run.invocation_id}" if run.invocation_id else "dbt"
    entries = [
        store.Entry(
            rule_id=test.unique_id,
            status=test.status,
            observed_value=test.failures,
            message=test.message,
            run_at=test.run_at,
            source=source,
            key=f"{test.unique_id}|{run.invocation_id}" if run.invocation_id else None,
        )
        for test in run.tests
    ]
    counts = {"received": run.received, "skipped": run.skipped, "ignored": run.ignored}
    await _rules_writable(request, [e.rule_id for e in entries])
    summary = await store.record_dbt(
        deps.graph(request), entries, counts, _caps(request), deps.actor(request)
    )
    return json_response(summary)


routes = [
    Route(BASE, list_rules, methods=["GET"], name="list_quality_rules", policy=bearer(Scope.READ)),
    Route(
        BASE,
        create_rule,
        methods=["POST"],
        name="create_quality_rule",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    ),
    *RULES.routes(),
    Route(
        RULES.path + "/results",
        record_result,
        methods=["POST"],
        name="record_quality_result",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    ),
    Route(
        RULES.path + "/results",
        list_results,
        methods=["GET"],
        name="list_quality_results",
        policy=bearer(Scope.READ),
    ),
    Route(
        DBT_RESULTS,
        upload_dbt_results,
        methods=["POST"],
        name="upload_dbt_results",
        policy=bearer(Scope.WRITE, body=Body.MANIFEST, replay=Replay.KEPT, per_domain=True),
    ),
]

_WHERE = (
    "A rule is written where its asset lies: inside a domain the caller's role there must "
    "reach editor, outside every domain the global role (403 `domain_forbidden` listing the "
    "asset otherwise, nothing written)."
)
_HIDDEN = (
    "A rule whose asset lies in a private domain where the caller holds no role is absent "
    "(404 `quality_rule_not_found`)."
)
docs = {
    "list_quality_rules": Doc(
        "List quality rules",
        "quality",
        description="Rules of assets in private domains where the caller holds no role are "
        "left out.",
        params=(
            *PAGING,
            Param("asset_id", schema={"type": "string", "maxLength": 512}),
            Param("status", schema={"enum": list(STATUSES)}),
            Param("type", schema={"enum": list(RULE_TYPES)}),
        ),
        responses={200: QualityRulePage},
        errors=(422,),
    ),
    "create_quality_rule": Doc(
        "Create a quality rule",
        "quality",
        description="The asset must exist (422 naming `asset_id` otherwise). Params are checked "
        "against the type (422 naming the param). Emits `quality.rule.created`. Accepts "
        "Idempotency-Key. " + _WHERE,
        body=QualityRuleFields,
        responses={201: QualityRule},
        errors=(413, 415, 422),
    ),
    **RULES.docs(
        get=Text("Get a quality rule", _HIDDEN),
        put=Text(
            "Replace a quality rule's definition",
            "Rule ids are made by the service (or are dbt unique_ids), so PUT never creates: "
            "404 for an unknown id. `status`, `last_result` and the other read-only fields may "
            "be sent back as read and are ignored. An unchanged definition keeps its version. "
            + _WHERE
            + " Moving the rule to another `asset_id` needs that asset writable too.",
        ),
        patch=Text(
            "Change a quality rule (JSON Merge Patch)",
            "Only the definition fields may be patched: "
            + ", ".join(store.WRITABLE)
            + ". "
            + _WHERE
            + " Moving the rule to another `asset_id` needs that asset writable too.",
        ),
        delete=Text("Delete a quality rule and its results", _WHERE),
    ),
    "record_quality_result": Doc(
        "Record a result for a rule",
        "quality",
        description="The rule's status follows its newest result by `run_at`; an older result "
        "is kept in the history without changing the status. Turning failing emits the alert "
        "`quality.rule.failed` with the downstream impact, the first pass after that "
        "`quality.rule.recovered`; repeated failures do not repeat the alert, and a disabled "
        "rule raises none. History keeps the newest `GOVERNANCE_QUALITY_HISTORY` (100) results. "
        + _WHERE,
        body=ResultCreate,
        responses={201: QualityResult},
        errors=(404, 413, 415, 422),
    ),
    "list_quality_results": Doc(
        "A rule's results, newest first",
        "quality",
        description=_HIDDEN,
        params=PAGING,
        responses={200: QualityResultPage},
        errors=(404, 422),
    ),
    "upload_dbt_results": Doc(
        "Record a dbt run_results.json",
        "quality",
        description="Each data test result (schema v4 and later) is recorded against the rule "
        "whose id is the test's unique_id (made by the manifest upload). `warn` counts as a "
        "failure, `skipped` records nothing, results of models and seeds are ignored. Ids with "
        "no rule are listed in `unmatched`, not refused. One transaction: all or nothing. Raw "
        "JSON, gzip, or multipart field `file`. The assets of every rule named must be "
        "writable by the caller (403 `domain_forbidden` listing them otherwise, nothing "
        "recorded).",
        body={
            "type": "object",
            "description": "a dbt run_results.json (dbt's own schema, v4 and later)",
            "required": ["metadata", "results"],
            "properties": {
                "metadata": {
                    "type": "object",
                    "required": ["dbt_schema_version"],
                    "properties": {"dbt_schema_version": {"type": "string"}},
                },
                "results": {"type": "array", "items": {"type": "object"}},
            },
        },
        body_media_types=("application/json", "multipart/form-data"),
        responses={200: DbtResultsSummary},
        errors=(413, 415, 422),
    ),
}
