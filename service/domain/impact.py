"""Change impact of a candidate dbt manifest: what it changes against the project as
stored, and where a walk downstream starts. Pure, so every kind of change is decided
(and tested) without a database.

A change is breaking when a reader of the project's relations can fail or silently
lose a guarantee: a relation removed, renamed or made ephemeral (no relation any
more), a column removed or retyped, a test removed. Additions, and removals of what
nothing reads (exposures, analyses), are not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from service.domain.dbt_manifest import DbtAsset, DbtRule, ManifestContents

# Node types whose removal takes away a relation that others read.
RELATIONS = frozenset({"model", "seed", "snapshot", "source"})


@dataclass(frozen=True, slots=True)
class StoredAsset:
    """A node of the project as the uploads wrote it."""

    id: str
    type: str
    columns: tuple[tuple[str, str | None], ...]  # (name, data type) in the stored order
    materialized: str | None = None
    relation: str | None = None


@dataclass(frozen=True, slots=True)
class StoredRule:
    """A data test of the project as the uploads wrote it (a quality rule)."""

    id: str
    asset_id: str
    column: str | None


@dataclass(frozen=True, slots=True)
class Change:
    kind: str
    asset: str
    column: str | None = None
    before: str | None = None  # `from` in the answer
    after: str | None = None  # `to` in the answer
    breaking: bool = False

    @property
    def seed(self) -> tuple[str, str | None] | None:
        """Where the walk downstream starts for a breaking change: the column it
        touches, else the whole asset; None for a change that breaks nothing."""
        if not self.breaking:
            return None
        return (self.asset, self.column)


def classify(
    stored: Mapping[str, StoredAsset],
    rules: Mapping[str, StoredRule],
    candidate: ManifestContents,
) -> list[Change]:
    """Every change from the stored project to the candidate, ordered by asset, then
    column, then kind."""
    wanted = {asset.id: asset for asset in candidate.assets}
    changes: list[Change] = []
    for asset_id, before in stored.items():
        after = wanted.get(asset_id)
        if after is None:
            changes.append(_node_change("removed", asset_id, before.type))
        else:
            changes += _asset_changes(before, after)
    changes += [
        _node_change("added", asset_id, after.type)
        for asset_id, after in wanted.items()
        if asset_id not in stored
    ]
    changes += _test_changes(rules, candidate.rules, set(stored) - set(wanted))
    return sorted(changes, key=lambda c: (c.asset, c.column or "", c.kind, c.before or ""))


def excluded(changes: Iterable[Change]) -> set[str]:
    """Assets the candidate itself removes or changes: changes, never impacted."""
    return {change.asset for change in changes}


def _node_change(verb: str, asset_id: str, node_type: str) -> Change:
    breaking = verb == "removed" and node_type in RELATIONS
    return Change(f"{node_type}_{verb}", asset_id, breaking=breaking)


def _asset_changes(before: StoredAsset, after: DbtAsset) -> list[Change]:
    changes = _column_changes(before, after)
    materialized = _text(after.properties.get("materialized"))
    if before.materialized and materialized and before.materialized != materialized:
        # An ephemeral model is inlined into its children: its relation is gone.
        gone = materialized == "ephemeral"
        changes.append(
            Change(
                "materialization_changed", after.id, None, before.materialized, materialized, gone
            )
        )
    relation = _text(after.properties.get("relation_name"))
    if before.relation and relation and before.relation != relation:
        changes.append(Change("relation_changed", after.id, None, before.relation, relation, True))
    return changes


def _column_changes(before: StoredAsset, after: DbtAsset) -> list[Change]:
    old = dict(before.columns)
    new = {column.name: column.type for column in after.columns}
    changes = [
        Change("column_removed", after.id, name, before=old[name], breaking=True)
        for name in old
        if name not in new
    ]
    changes += [
        Change("column_added", after.id, name, after=new[name]) for name in new if name not in old
    ]
    for name, was in old.items():
        now = new.get(name)
        if was and now and not _same_type(was, now):
            changes.append(Change("column_type_changed", after.id, name, was, now, True))
    return changes


def _same_type(a: str, b: str) -> bool:
    """Types as written by people: case and spacing do not matter."""
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def _test_changes(
    stored: Mapping[str, StoredRule], wanted: Iterable[DbtRule], removed_assets: set[str]
) -> list[Change]:
    """Tests removed (breaking: a guarantee readers relied on is gone) and added. The
    tests of a removed asset go with it and are not listed again."""
    kept = {rule.id: rule for rule in wanted}
    changes = [
        Change("test_removed", rule.asset_id, rule.column, before=rule.id, breaking=True)
        for rule in stored.values()
        if rule.id not in kept and rule.asset_id not in removed_assets
    ]
    changes += [
        Change("test_added", rule.asset_id, rule.column, after=rule.id)
        for rule in kept.values()
        if rule.id not in stored
    ]
    return changes


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
