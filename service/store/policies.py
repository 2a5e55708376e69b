"""Policies and their violations over `cypher/policies/`.

Each kind is one statement (`policies.eval_<kind>`) that answers the assets
breaking the policy now. Evaluation locks the policy, diffs that answer with the
stored violations (`service.domain.policies.reconcile`) and writes the difference
with its alerts in the same transaction: a violation opens or resolves once.
"""

from __future__ import annotations

from typing import Any

import orjson

from service import clock
from service.domain.finding_privacy import concealed, redact_finding
from service.domain.policies import Finding, reconcile
from service.domain.preconditions import Expected
from service.domain.walks import Walk, flowing_into, lacking_tag
from service.errors import NotFound
from service.graph import Graph, Tx
from service.ids import new_id
from service.models.policies import (
    PARAMS,
    Policy,
    PolicyEvaluation,
    PolicyFields,
    Selector,
    Violation,
)
from service.models.validation import validate
from service.store import audit, versioned
from service.store.outbox import Pending, emit, emit_many

# What a client writes: a merge patch may name only these (`read_merge_patch` refuses
# any other key against PolicyFields), so they are the model's fields, said once.
WRITABLE = tuple(PolicyFields.model_fields)
EVALUATOR = "system:policy-evaluator"


def _not_found(policy_id: str) -> NotFound:
    return NotFound(f"No policy with id {policy_id!r}.", code="policy_not_found")


KIND = versioned.Kind("policies.get", "policies.lock", Policy.from_node, _not_found)


def checked(fields: PolicyFields) -> PolicyFields:
    """The fields with `params` validated (and defaults filled) for their kind."""
    params = validate(PARAMS[fields.kind], fields.params, ("body", "params"))
    return fields.model_copy(update={"params": params.model_dump(mode="json")})


def _definition(fields: PolicyFields) -> dict[str, Any]:
    return {
        "name": fields.name,
        "description": fields.description,
        "kind": fields.kind,
        "enabled": fields.enabled,
        "severity": fields.severity,
        "selector_json": _json(fields.selector.model_dump(mode="json", exclude_defaults=True)),
        "params_json": _json(fields.params),
    }


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


async def page(
    graph: Graph, kind: str | None, enabled: bool | None, after: str, limit: int
) -> list[Policy]:
    rows = await graph.read("policies.list", kind=kind, enabled=enabled, after=after, limit=limit)
    return [Policy.from_node(r["policy"]) for r in rows]


async def get(graph: Graph, policy_id: str) -> Policy:
    return await versioned.get(graph, KIND, policy_id)


async def create(graph: Graph, fields: PolicyFields, actor: str) -> Policy:
    now = clock.now_iso()
    props = {
        **_definition(checked(fields)),
        "id": new_id("pol"),
        "version": 1,
        "created_at": now,
        "updated_at": now,
    }

    async def work(tx: Tx) -> Policy:
        rows = await tx.run(
            "policies.create", props={k: v for k, v in props.items() if v is not None}
        )
        policy = Policy.from_node(rows[0]["policy"])
        emit(tx, "policy.created", policy, actor)
        audit.record(tx, "policy.created", _audited(policy), actor)
        return policy

    return await graph.write_tx(work)


def _audited(policy: Policy) -> dict[str, Any]:
    """What the audit trail keeps of a policy; the full definition is in `policy.*`."""
    return {
        "id": policy.id,
        "name": policy.name,
        "kind": policy.kind,
        "version": policy.version,
        "enabled": policy.enabled,
    }


async def _rewrite(tx: Tx, current: dict[str, Any], fields: PolicyFields, actor: str) -> Policy:
    wanted = {k: v for k, v in _definition(fields).items() if v is not None}
    kept = {"id", "version", "created_at", "updated_at", "evaluated_at"}
    if {k: v for k, v in current.items() if k not in kept} == wanted:
        return Policy.from_node(current)
    props = {
        **wanted,
        **{k: current[k] for k in ("id", "created_at", "evaluated_at") if current.get(k)},
        "version": int(current["version"]) + 1,
        "updated_at": clock.now_iso(),
    }
    rows = await tx.run("policies.replace", id=current["id"], props=props)
    policy = Policy.from_node(rows[0]["policy"])
    emit(tx, "policy.updated", policy, actor)
    audit.record(tx, "policy.updated", _audited(policy), actor)
    return policy


async def replace(
    graph: Graph, policy_id: str, fields: PolicyFields, expected: Expected | None, actor: str
) -> Policy:
    fields = checked(fields)

    async def change(tx: Tx, current: dict[str, Any]) -> Policy:
        return await _rewrite(tx, current, fields, actor)

    return await versioned.write(graph, KIND, policy_id, expected, change)


def _writable(policy: Policy) -> dict[str, Any]:
    return policy.model_dump(mode="json", include=set(WRITABLE))


async def patch(
    graph: Graph, policy_id: str, document: dict[str, Any], expected: Expected | None, actor: str
) -> Policy:
    """JSON Merge Patch over the definition, validated as a whole for the resulting kind."""

    async def change(tx: Tx, current: dict[str, Any], fields: PolicyFields) -> Policy:
        return await _rewrite(tx, current, checked(fields), actor)

    return await versioned.patch(
        graph, KIND, policy_id, document, expected, _writable, PolicyFields, change
    )


async def delete(graph: Graph, policy_id: str, expected: Expected | None, actor: str) -> None:
    """The policy goes, and its open violations are announced as resolved."""

    async def change(tx: Tx, current: dict[str, Any]) -> None:
        policy = Policy.from_node(current)
        rows = await tx.run("policies.delete", id=policy_id)
        emit(tx, "policy.deleted", policy, actor)
        audit.record(tx, "policy.deleted", _audited(policy), actor)
        gone = [Finding.from_record(v) for v in rows[0]["violations"]] if rows else []
        emit_many(tx, _alerts("resolved", policy, gone), actor)

    await versioned.write(graph, KIND, policy_id, expected, change)


async def violations(
    graph: Graph, policy_id: str, after: str, limit: int, readable: tuple[str, ...] | None
) -> tuple[Policy, list[Violation]]:
    """`readable` (None: all) lists the private domains whose assets' violations may show."""
    policy = await get(graph, policy_id)
    rows = await graph.read(
        "policies.violations",
        policy_id=policy_id,
        after=after,
        limit=limit,
        readable=None if readable is None else list(readable),
    )
    return policy, [
        Violation(**redact_finding(r["violation"], concealed(r["hidden"], readable))) for r in rows
    ]


async def policy_ids(graph: Graph) -> list[str]:
    return [r["id"] for r in await graph.read("policies.ids")]


async def evaluate(
    graph: Graph, policy_id: str, max_depth: int, timeout_s: float
) -> PolicyEvaluation | None:
    """Evaluate one policy now; None when it no longer exists. `timeout_s` is the
    evaluation's own limit: a large graph takes longer than an interactive query."""

    async def work(tx: Tx) -> PolicyEvaluation | None:
        rows = await tx.run("policies.lock", id=policy_id)
        if not rows:
            return None
        policy = Policy.from_node(rows[0]["policy"])
        found = await _findings(tx, policy, max_depth) if policy.enabled else []
        stored = {
            r["asset_id"]: r for r in await tx.run("policies.open_violations", policy_id=policy_id)
        }
        now = clock.now_iso()
        diff = reconcile(stored, found, now)
        await tx.run(
            "policies.save_violations",
            policy_id=policy_id,
            now=now,
            open=[{**_record(f), "opened_at": at} for f, at in diff.to_write],
            resolved=[f.asset_id for f in diff.resolved],
        )
        emit_many(
            tx,
            _alerts("opened", policy, diff.opened) + _alerts("resolved", policy, diff.resolved),
            EVALUATOR,
        )
        return PolicyEvaluation(
            policy_id=policy_id,
            violations=len(diff.open),
            opened=len(diff.opened),
            resolved=len(diff.resolved),
        )

    return await graph.write_tx(work, timeout_s)


EVALUATIONS = {
    "require_owner": "policies.eval_require_owner",
    "require_description": "policies.eval_require_description",
    "require_quality_rule": "policies.eval_require_quality_rule",
    "restricted_column_flow": "policies.eval_restricted_column_flow",
}


async def _findings(tx: Tx, policy: Policy, max_depth: int) -> list[Finding]:
    """The kind's evaluation; lineage walks are bounded by the service's depth."""
    params = policy.params
    selector = Selector.model_validate(policy.selector).as_params()
    depth = min(int(params.get("max_depth", max_depth)), max_depth)
    if policy.kind == "tag_propagation":
        return await _tag_propagation(tx, selector, params["tag"], depth)
    if policy.kind == "restricted_flow":
        to = Selector.model_validate(params["to"]).as_params()
        return await _restricted_flow(tx, selector, to, depth)
    arguments: dict[str, Any] = {"selector": selector}
    if policy.kind == "require_quality_rule":
        arguments["types"] = params.get("types", [])
    if policy.kind == "restricted_column_flow":
        arguments.update(tag=params["tag"], depth=depth)
    rows = await tx.run(EVALUATIONS[policy.kind], **arguments)
    return [Finding.from_record(r) for r in rows]


async def _walk(tx: Tx, walk: Walk, step: str, depth: int) -> Walk:
    """Advance a multi-source walk one hop per statement, at most `depth` hops."""
    for _ in range(depth):
        if not walk.frontier:
            break
        rows = await tx.run(step, frontier=walk.frontier_ids())
        walk.advance((r["node"], n) for r in rows for n in r["next"])
    return walk


async def _tag_propagation(tx: Tx, selector: dict[str, Any], tag: str, depth: int) -> list[Finding]:
    """One walk downstream from every tagged asset with an untagged child; each governed
    asset it reaches without the tag violates, with the path from the nearest source."""
    sources = [r["id"] for r in await tx.run("policies.tag_sources", tag=tag)]
    walk = await _walk(tx, Walk.start(sources), "policies.children", depth)
    reached = sorted(node for node, labels in walk.reached.items() if labels[0].distance > 0)
    lacking = await tx.run("policies.tag_lacking", ids=reached, tag=tag, selector=selector)
    return lacking_tag(walk, (r["id"] for r in lacking), tag)


async def _restricted_flow(
    tx: Tx, selector: dict[str, Any], to: dict[str, Any], depth: int
) -> list[Finding]:
    """One walk upstream from every restricted asset, each asset keeping its two nearest
    targets, so a governed asset that is itself restricted still learns of another."""
    targets = [r["id"] for r in await tx.run("policies.restricted_targets", to=to)]
    walk = await _walk(tx, Walk.start(targets, labels=2), "policies.parents", depth)
    flowing = sorted(node for node in walk.reached if walk.nearest(node, other_than=node))
    governed = await tx.run("policies.governed", ids=flowing, selector=selector)
    return flowing_into(walk, (r["id"] for r in governed))


def _record(finding: Finding) -> dict[str, Any]:
    """A finding as its violation record keeps it."""
    listed = {"path": finding.path, "path_assets": finding.path_assets}
    return {
        "asset_id": finding.asset_id,
        "reason": finding.reason,
        **{k: list(v) if v is not None else None for k, v in listed.items()},
        "far_end": finding.far_end,
    }


def _alerts(change: str, policy: Policy, findings: list[Finding]) -> list[Pending]:
    return [
        Pending(
            f"policy.violation.{change}",
            f.as_event(policy.id),
            alert=True,
            severity=policy.severity,
            gone=f.hidden,
        )
        for f in findings
    ]
