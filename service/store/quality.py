"""Quality rules and their results over `cypher/quality/`.

Recording results locks the rules first, then decides status and alerts in Python
(`service.domain.quality`), so concurrent uploads for one rule announce a failure
once: the second writer sees the first one's committed state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from service import clock
from service.domain.event_privacy import hidden_owners
from service.domain.preconditions import Expected
from service.domain.quality import ALERT_STATUS, outcome, params_problems
from service.errors import NotFound, validation_error
from service.graph import Graph, Tx
from service.ids import new_id
from service.models.quality import (
    DbtResultsSummary,
    QualityResult,
    QualityRule,
    QualityRuleFields,
)
from service.store import identity, versioned
from service.store.outbox import Pending, emit, emit_many

# What a client writes: a merge patch may name only these (`read_merge_patch` refuses
# any other key against QualityRuleFields), so they are the model's fields, said once.
WRITABLE = tuple(QualityRuleFields.model_fields)
STATE = ("status", "last_result", "last_run_at", "alerting", "origin")


@dataclass(frozen=True)
class Entry:
    """One result to record: from the API or from a dbt run."""

    rule_id: str
    status: str
    observed_value: Any
    message: str | None
    run_at: str
    source: str
    key: str | None = None  # identifies a repeat of the same result (a dbt invocation's)


@dataclass
class Recorded:
    results: list[QualityResult] = field(default_factory=list)
    stale: int = 0
    duplicates: int = 0
    known: set[str] = field(default_factory=set)  # the entries' rule ids that exist
    failed: list[str] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Caps:
    """How many results each rule keeps, and how deep an alert's impact looks."""

    history: int
    impact_depth: int


def not_found(rule_id: str) -> NotFound:
    return NotFound(f"No quality rule with id {rule_id!r}.", code="quality_rule_not_found")


KIND = versioned.Kind("quality.get_rule", "quality.lock_rule", QualityRule.from_node, not_found)


def _unknown_asset(asset_id: str) -> Exception:
    return validation_error(("body", "asset_id"), f"no asset with id {asset_id!r}", "unknown_asset")


async def page(
    graph: Graph,
    asset_id: str | None,
    status: str | None,
    type_: str | None,
    after: str,
    limit: int,
    readable: tuple[str, ...] | None = None,
) -> list[QualityRule]:
    """A former id as `asset_id` lists the rules of the asset it names now. `readable`
    (None: all) lists the private domains whose assets' rules the caller may see."""
    asset_id = await identity.resolve_read(graph, asset_id) if asset_id else asset_id
    rows = await graph.read(
        "quality.list_rules",
        asset_id=asset_id,
        status=status,
        type=type_,
        after=after,
        limit=limit,
        readable=readable,
    )
    return [QualityRule.from_node(r["rule"]) for r in rows]


async def assets_of(graph: Graph, rule_ids: list[str]) -> dict[str, str]:
    """The asset each existing rule among `rule_ids` names (for the per-domain check)."""
    if not rule_ids:
        return {}
    rows = await graph.read("quality.rule_assets", ids=sorted(set(rule_ids)))
    return {r["id"]: r["asset_id"] for r in rows}


async def get(graph: Graph, rule_id: str) -> QualityRule:
    return await versioned.get(graph, KIND, rule_id)


def checked(fields: QualityRuleFields) -> QualityRuleFields:
    """The fields, once their params fit their type (422 naming the param otherwise)."""
    problems = params_problems(fields.type, fields.params)
    if problems:
        loc, msg = problems[0]
        raise validation_error(("body", "params", *loc), msg, "invalid_params")
    return fields


def _definition(fields: QualityRuleFields) -> dict[str, Any]:
    props = fields.model_dump(include=set(WRITABLE))
    props["params"] = orjson.dumps(props["params"], option=orjson.OPT_SORT_KEYS).decode()
    return {k: v for k, v in props.items() if v is not None}


async def create(graph: Graph, fields: QualityRuleFields, actor: str) -> QualityRule:
    now = clock.now_iso()
    props = {
        **_definition(checked(fields)),
        "id": new_id("qr"),
        "status": "unknown",
        "alerting": False,
        "origin": "api",
        "version": 1,
        "created_at": now,
        "updated_at": now,
    }

    async def work(tx: Tx) -> QualityRule:
        asset_id = await identity.resolve(tx, fields.asset_id)
        rows = await tx.run("quality.create_rule", props={**props, "asset_id": asset_id})
        if not rows:
            raise _unknown_asset(fields.asset_id)
        rule = QualityRule.from_node(rows[0]["rule"])
        emit(tx, "quality.rule.created", rule, actor)
        return rule

    return await graph.write_tx(work)


async def _rewrite(
    tx: Tx, current: dict[str, Any], fields: QualityRuleFields, actor: str
) -> QualityRule:
    """The rule with a new definition; an unchanged definition keeps its version. A
    former id as `asset_id` names the asset it was merged into."""
    wanted = _definition(fields)
    wanted["asset_id"] = await identity.resolve(tx, fields.asset_id)
    if {k: current.get(k) for k in WRITABLE if k in current or k in wanted} == wanted:
        return QualityRule.from_node(current)
    props = {
        **wanted,
        **{k: current[k] for k in STATE if current.get(k) is not None},
        "id": current["id"],
        "version": int(current["version"]) + 1,
        "created_at": current["created_at"],
        "updated_at": clock.now_iso(),
    }
    rows = await tx.run("quality.replace_rule", id=current["id"], props=props)
    if not rows:
        raise _unknown_asset(fields.asset_id)
    rule = QualityRule.from_node(rows[0]["rule"])
    emit(tx, "quality.rule.updated", rule, actor)
    return rule


async def replace(
    graph: Graph, rule_id: str, fields: QualityRuleFields, expected: Expected | None, actor: str
) -> QualityRule:
    async def change(tx: Tx, current: dict[str, Any]) -> QualityRule:
        return await _rewrite(tx, current, checked(fields), actor)

    return await versioned.write(graph, KIND, rule_id, expected, change)


def _writable(rule: QualityRule) -> dict[str, Any]:
    return rule.model_dump(mode="json", include=set(WRITABLE))


async def patch(
    graph: Graph,
    rule_id: str,
    document: dict[str, Any],
    expected: Expected | None,
    actor: str,
) -> QualityRule:
    """JSON Merge Patch over the definition, validated as a whole; `params` merges too."""

    async def change(tx: Tx, current: dict[str, Any], fields: QualityRuleFields) -> QualityRule:
        return await _rewrite(tx, current, checked(fields), actor)

    return await versioned.patch(
        graph, KIND, rule_id, document, expected, _writable, QualityRuleFields, change
    )


async def delete(graph: Graph, rule_id: str, expected: Expected | None, actor: str) -> None:
    async def change(tx: Tx, current: dict[str, Any]) -> None:
        await tx.run("quality.delete_rule", id=rule_id)
        emit(tx, "quality.rule.deleted", QualityRule.from_node(current), actor)

    await versioned.write(graph, KIND, rule_id, expected, change)


async def delete_for_asset(
    tx: Tx, asset_id: str, actor: str, hides_in: tuple[str, ...] = ()
) -> list[str]:
    """In the asset's delete transaction: its rules go too, each announced with the reason
    (placed in `hides_in`, the asset's private domain: it is gone when events append)."""
    rows = await tx.run("quality.delete_for_asset", asset_id=asset_id)
    rules = [QualityRule.from_node(r["rule"]) for r in rows]
    emit_many(
        tx,
        [
            Pending(
                "quality.rule.deleted",
                {**r.model_dump(mode="json"), "reason": "asset_deleted"},
                hides_in=hides_in,
            )
            for r in rules
        ],
        actor,
    )
    return [r.id for r in rules]


async def results(graph: Graph, rule_id: str, after: list[str], limit: int) -> list[QualityResult]:
    rows = await graph.read("quality.results", rule_id=rule_id, after=after, limit=limit)
    if not rows:
        await get(graph, rule_id)  # 404 for an unknown rule, [] for one without results
    return [QualityResult.from_node(r["result"]) for r in rows]


async def record_one(graph: Graph, entry: Entry, caps: Caps, actor: str) -> QualityResult:
    async def work(tx: Tx) -> QualityResult:
        recorded = await _record(tx, [entry], caps, actor)
        if not recorded.results:
            raise not_found(entry.rule_id)
        return recorded.results[0]

    return await graph.write_tx(work)


async def record_dbt(
    graph: Graph,
    entries: list[Entry],
    counts: dict[str, int],
    caps: Caps,
    actor: str,
) -> DbtResultsSummary:
    """A dbt run's test results in one transaction; ids without a rule are reported."""

    async def work(tx: Tx) -> DbtResultsSummary:
        recorded = await _record(tx, entries, caps, actor)
        return DbtResultsSummary(
            received=counts["received"],
            recorded=len(recorded.results),
            unmatched=sorted({e.rule_id for e in entries} - recorded.known),
            skipped=counts["skipped"],
            ignored=counts["ignored"],
            stale=recorded.stale,
            duplicates=recorded.duplicates,
            failed=recorded.failed,
            recovered=recorded.recovered,
        )

    return await graph.write_tx(work)


async def _record(tx: Tx, entries: list[Entry], caps: Caps, actor: str) -> Recorded:
    """Lock the rules, apply the entries oldest first, write once, announce once."""
    ids = sorted({e.rule_id for e in entries})
    rules = {r["rule"]["id"]: r["rule"] for r in await tx.run("quality.lock_rules", ids=ids)}
    recorded = Recorded(known=set(rules))
    keys = [e.key for e in entries if e.key and e.rule_id in rules]
    seen = (
        {r["key"] for r in await tx.run("quality.existing_results", keys=keys)} if keys else set()
    )
    fresh: dict[object, Entry] = {}
    for entry in entries:
        if entry.key in seen:
            recorded.duplicates += 1
        else:
            fresh.setdefault(entry.key or object(), entry)
    entries = list(fresh.values())
    rows: list[dict[str, Any]] = []
    final_row: dict[str, int] = {}
    alerts: list[tuple[str, str]] = []
    now = clock.now_iso()
    for entry in sorted((e for e in entries if e.rule_id in rules), key=lambda e: e.run_at):
        rule = rules[entry.rule_id]
        result_id = new_id("qres")
        result = {
            "id": result_id,
            "key": entry.key or result_id,
            "rule_id": entry.rule_id,
            "status": entry.status,
            "observed_json": orjson.dumps(entry.observed_value).decode(),
            "message": entry.message,
            "run_at": entry.run_at,
            "recorded_at": now,
            "source": entry.source,
        }
        rows.append({"rule_id": entry.rule_id, "result": result, "rule": None})
        recorded.results.append(QualityResult.from_node(result))
        if rule.get("last_run_at") and entry.run_at < rule["last_run_at"]:
            recorded.stale += 1
            continue
        change = outcome(
            entry.status,
            enabled=bool(rule.get("enabled", True)),
            alerting=bool(rule.get("alerting")),
        )
        rule.update(
            status=change.status,
            alerting=change.alerting,
            last_run_at=entry.run_at,
            last_result=orjson.dumps(_last_result(result, entry)).decode(),
        )
        final_row[entry.rule_id] = len(rows) - 1
        if change.alert:
            alerts.append((entry.rule_id, change.alert))
    for rule_id, index in final_row.items():
        rule = rules[rule_id]
        rows[index]["rule"] = {
            k: rule[k] for k in ("status", "alerting", "last_run_at", "last_result")
        }
    if not rows:
        return recorded
    await tx.run("quality.record_results", rows=rows)
    await tx.run("quality.trim_results", rule_ids=sorted(final_row), keep=caps.history)
    events = [
        Pending(
            "quality.result.recorded", {"rule_id": r.rule_id, "result": r.model_dump(mode="json")}
        )
        for r in recorded.results
    ]
    events += await _alerts(tx, alerts, rules, caps, recorded)
    emit_many(tx, events, actor)
    return recorded


def _last_result(result: dict[str, Any], entry: Entry) -> dict[str, Any]:
    return {
        "status": result["status"],
        "observed_value": entry.observed_value,
        "message": entry.message,
        "run_at": entry.run_at,
        "source": entry.source,
    }


async def _alerts(
    tx: Tx,
    alerts: list[tuple[str, str]],
    rules: dict[str, dict[str, Any]],
    caps: Caps,
    recorded: Recorded,
) -> list[Pending]:
    if not alerts:
        return []
    asset_ids = sorted({rules[rule_id]["asset_id"] for rule_id, _ in alerts})
    rows = await tx.run("quality.impact", {"depth": caps.impact_depth}, asset_ids=asset_ids)
    impact = {
        r["asset_id"]: {
            "downstream_count": r["downstream_count"],
            "downstream_ids": r["downstream_ids"],
            "owners": r["owners"],
        }
        for r in rows
    }
    owners = {r["asset_id"]: tuple(hidden_owners(r["owner_places"])) for r in rows}
    events = []
    for rule_id, alert in alerts:
        rule = rules[rule_id]
        (recorded.failed if alert == "failed" else recorded.recovered).append(rule_id)
        events.append(
            Pending(
                f"quality.rule.{alert}",
                {
                    "rule_id": rule_id,
                    "asset_id": rule["asset_id"],
                    "rule_name": rule.get("name"),
                    "status": ALERT_STATUS[alert],
                    "impact": impact.get(rule["asset_id"]),
                },
                alert=True,
                severity=rule.get("severity"),
                hidden_owners=owners.get(rule["asset_id"], ()),
            )
        )
    return events
