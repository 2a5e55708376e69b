"""What the policy, quality and query operations send and how their answers are read,
shared by both clients (the catalogue and lineage ones are in ``_calls.py``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from governance_client._call import (
    Call,
    create,
    dump,
    fields,
    get,
    gzipped_artifact,
    item_path,
    json_body,
    replace,
)
from governance_client._calls import UPLOAD_TIMEOUT_S
from governance_client.types import (
    CypherResult,
    DbtResultsSummary,
    EvaluationSummary,
    Page,
    Policy,
    QualityResult,
    QualityRule,
    QueryResult,
    Violations,
)

RunResults = str | os.PathLike[str] | bytes | Mapping[str, Any]


def rfc3339(moment: str | datetime) -> str:
    """A time as the service writes it (UTC, milliseconds, ``Z``); text goes as it is."""
    if isinstance(moment, str):
        return moment
    if moment.tzinfo is None:
        raise ValueError("run_at must be timezone-aware (e.g. datetime.now(UTC))")
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


# -- policies -----------------------------------------------------------------


def policy_fields(
    *,
    name: str,
    kind: str,
    description: str | None,
    enabled: bool | None,
    severity: str | None,
    selector: Mapping[str, Any] | None,
    params: Mapping[str, Any] | None,
) -> dict[str, Any]:
    return fields(
        name=name,
        kind=kind,
        description=description,
        enabled=enabled,
        severity=severity,
        selector=None if selector is None else dict(selector),
        params=None if params is None else dict(params),
    )


def list_policies(
    *, kind: str | None, enabled: bool | None, limit: int | None, cursor: str | None
) -> Call[Page[Policy]]:
    return get("/policies", kind=kind, enabled=enabled, limit=limit, cursor=cursor)


def create_policy(body: dict[str, Any], idempotency_key: str | None) -> Call[Policy]:
    return create("/policies", body, idempotency_key)


def put_policy(policy_id: str, body: dict[str, Any], if_match: int | str | None) -> Call[Policy]:
    return replace(item_path("/policies", policy_id), body, if_match)


def list_violations(policy_id: str, *, limit: int | None, cursor: str | None) -> Call[Violations]:
    return get(item_path("/policies", policy_id, "/violations"), limit=limit, cursor=cursor)


def evaluate_policies(idempotency_key: str | None) -> Call[EvaluationSummary]:
    # Evaluating twice gives the same violations; the key spares the service the work.
    return Call(
        "POST",
        "/policies/evaluate",
        json_body,
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


# -- quality rules --------------------------------------------------------------


def rule_fields(
    *,
    asset_id: str,
    name: str,
    type: str,
    column: str | None,
    params: Mapping[str, Any] | None,
    severity: str | None,
    enabled: bool | None,
) -> dict[str, Any]:
    return fields(
        asset_id=asset_id,
        column=column,
        name=name,
        type=type,
        params=None if params is None else dict(params),
        severity=severity,
        enabled=enabled,
    )


def list_rules(
    *,
    asset_id: str | None,
    status: str | None,
    type: str | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[QualityRule]]:
    return get(
        "/quality/rules", asset_id=asset_id, status=status, type=type, limit=limit, cursor=cursor
    )


def create_rule(body: dict[str, Any], idempotency_key: str | None) -> Call[QualityRule]:
    return create("/quality/rules", body, idempotency_key)


def put_rule(rule_id: str, body: dict[str, Any], if_match: int | str | None) -> Call[QualityRule]:
    return replace(item_path("/quality/rules", rule_id), body, if_match)


def record_result(
    rule_id: str,
    status: str,
    *,
    observed_value: Any,
    message: str | None,
    run_at: str | datetime | None,
    idempotency_key: str | None,
) -> Call[QualityResult]:
    body = fields(
        status=status,
        observed_value=observed_value,
        message=message,
        run_at=None if run_at is None else rfc3339(run_at),
    )
    return create(item_path("/quality/rules", rule_id, "/results"), body, idempotency_key)


def list_results(
    rule_id: str, *, limit: int | None, cursor: str | None
) -> Call[Page[QualityResult]]:
    return get(item_path("/quality/rules", rule_id, "/results"), limit=limit, cursor=cursor)


def upload_dbt_results(
    run_results: RunResults, idempotency_key: str | None
) -> Call[DbtResultsSummary]:
    # The service records a dbt invocation once (a repeat counts as `duplicates`),
    # so the upload may be retried.
    return Call(
        "POST",
        "/quality/results/dbt",
        json_body,
        body=gzipped_artifact(run_results, "run_results"),
        headers=(("Content-Encoding", "gzip"),),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
        min_timeout=UPLOAD_TIMEOUT_S,
    )


# -- query --------------------------------------------------------------------

_PAGED_PARTS = ("nodes", "edges", "paths")


def run_query(body: Mapping[str, Any], cursor: str | None = None) -> Call[QueryResult]:
    sent = dict(body)
    if cursor is not None:
        sent["cursor"] = cursor
    return Call("POST", "/query", json_body, body=dump(sent), idempotent=True)


def paged_part(body: Mapping[str, Any]) -> str:
    """Which list of the answer holds the items of ``body``'s return form."""
    form = body.get("return") or ("paths" if body.get("path") is not None else "nodes")
    if form not in _PAGED_PARTS:
        raise ValueError(
            f'return "{form}" has no single list of items: use query.pages() '
            "(a graph page holds nodes and edges; a count is one answer)"
        )
    return str(form)


def items_of(page: QueryResult, part: str) -> list[Any]:
    items = dict(page).get(part)
    return items if isinstance(items, list) else []


def cypher(
    text: str, parameters: Mapping[str, Any] | None, limit: int | None
) -> Call[CypherResult]:
    body = fields(
        query=text, parameters=None if parameters is None else dict(parameters), limit=limit
    )
    return Call("POST", "/query/cypher", json_body, body=dump(body), idempotent=True)
