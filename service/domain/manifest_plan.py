"""What ingesting a read manifest writes: pure, so that "created", "updated" and
"unchanged" are decided (and tested) without a database.

Assets keep their `created_at` and get a new `version` only when something
changed; placeholders that a manifest names are claimed (counted as created).
Rules keep the status and last result their runs recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import ValidationError

from service.domain.assets import IDENTITY, dataset_properties, node_properties
from service.domain.datasets import DatasetRef
from service.domain.dbt_manifest import DbtAsset, DbtRule, ManifestContents
from service.domain.domains import DomainRules, placement
from service.domain.lineage import column_row
from service.ids import id_problem
from service.models.assets import AssetFields

STAMPS = ("created_at", "updated_at", "version")
MAX_TAG = 64


@dataclass
class WritePlan:
    rows: list[dict[str, Any]] = field(default_factory=list)
    created: int = 0
    updated: int = 0
    warnings: list[str] = field(default_factory=list)
    written_ids: set[str] = field(default_factory=set)


def _fields(asset: DbtAsset) -> tuple[AssetFields | None, list[str]]:
    problem = id_problem(asset.id)
    if problem:
        return None, [f"{asset.id!r}: not ingested (the id {problem})"]
    warnings = []
    tags = [t for t in asset.tags if 1 <= len(t) <= MAX_TAG]
    if len(tags) != len(asset.tags):
        warnings.append(f"{asset.id}: tags longer than {MAX_TAG} characters were dropped")
    document = {
        "name": asset.name or asset.id,
        "type": asset.type,
        "platform": asset.platform,
        "description": asset.description,
        "owners": list(asset.owners),
        "tags": tags,
        "columns": [
            {
                "name": c.name,
                "type": c.type,
                "description": c.description,
                "tags": [t for t in c.tags if 1 <= len(t) <= MAX_TAG],
            }
            for c in asset.columns
        ],
        "properties": asset.properties,
    }
    try:
        return AssetFields.model_validate(document), warnings
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        return None, [*warnings, f"{asset.id}: not ingested ({where}: {first['msg']})"]


def _stamp(props: dict[str, Any], current: dict[str, Any] | None, now: str) -> dict[str, Any]:
    current = current or {}
    return {
        **props,
        "created_at": current.get("created_at") or now,
        "updated_at": now,
        "version": int(current.get("version") or 0) + 1,
    }


def _same(current: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return {k: v for k, v in current.items() if k not in STAMPS} == wanted


def plan_assets(
    assets: Sequence[DbtAsset],
    existing: dict[str, dict[str, Any]],
    now: str,
    datasets: Mapping[str, DatasetRef] | None = None,
    weak: Set[str] = frozenset(),
    rules: DomainRules | None = None,
) -> WritePlan:
    """`datasets`: the physical dataset each asset holds; `weak`: the ids that only
    point at their table (dbt sources), which a model claiming it may merge; `rules`:
    the domain rules that place each asset (`domain`, `domain_private`)."""
    plan = WritePlan()
    for asset in assets:
        fields, warnings = _fields(asset)
        plan.warnings += warnings
        if fields is None:
            continue
        plan.written_ids.add(asset.id)
        current = existing.get(asset.id)
        wanted = {
            **node_properties(asset.id, fields),
            **dataset_properties((datasets or {}).get(asset.id)),
            **({"dataset_weak": True} if asset.id in weak and datasets else {}),
            **{k: current[k] for k in IDENTITY if current and current.get(k)},
        }
        wanted.update(placement(wanted, rules or DomainRules()))
        if current is not None and _same(current, wanted):
            continue
        if current is None or current.get("placeholder"):
            plan.created += 1
        else:
            plan.updated += 1
        plan.rows.append({"id": asset.id, "props": _stamp(wanted, current, now)})
    return plan


def plan_rules(
    rules: Sequence[DbtRule],
    existing: dict[str, dict[str, Any]],
    asset_ids: set[str],
    origin: str,
    now: str,
) -> WritePlan:
    plan = WritePlan()
    for rule in rules:
        if rule.asset_id not in asset_ids:
            plan.warnings.append(
                f"{rule.id}: its asset {rule.asset_id} was not ingested; rule skipped"
            )
            continue
        plan.written_ids.add(rule.id)
        current = existing.get(rule.id)
        wanted = {
            "id": rule.id,
            "asset_id": rule.asset_id,
            "column": rule.column,
            "name": rule.name,
            "type": rule.type,
            "params": orjson.dumps(rule.params, option=orjson.OPT_SORT_KEYS).decode(),
            "severity": rule.severity,
            "origin": origin,
            "enabled": True if current is None else bool(current.get("enabled", True)),
            "status": "unknown" if current is None else current.get("status", "unknown"),
            "last_result": None if current is None else current.get("last_result"),
            # Result state is the results' to keep: a re-upload must not forget that a
            # failure was announced, nor when the newest result ran.
            "last_run_at": None if current is None else current.get("last_run_at"),
            "alerting": None if current is None else current.get("alerting"),
        }
        wanted = {k: v for k, v in wanted.items() if v is not None}
        if current is not None and _same(current, wanted):
            continue
        if current is None:
            plan.created += 1
        else:
            plan.updated += 1
        plan.rows.append({"id": rule.id, "props": _stamp(wanted, current, now)})
    return plan


def plan_column_edges(
    contents: ManifestContents, edges: set[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Column rows along the edges being written (both assets ingested), sorted so that
    concurrent writers lock in one order; a mapping is written once."""
    rows = {}
    for edge in contents.column_lineage.edges:
        if (edge.source, edge.target) not in edges:
            continue
        row = column_row(
            edge.source,
            edge.source_column,
            edge.target,
            edge.target_column,
            edge.transformation,
            kind=edge.kind,
        )
        rows[(row["source_key"], row["target_key"])] = row
    return [rows[key] for key in sorted(rows)]
