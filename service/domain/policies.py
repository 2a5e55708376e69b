"""Policy semantics that need no database: reconciling a fresh evaluation with the
stored violations (the diff is what makes alerts fire exactly once), and which
changes can alter a policy's outcome."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Changes that can open or resolve a violation. Results, alerts, tokens and
# webhooks cannot, and violation events must not re-trigger evaluation.
TRIGGERS = (
    "asset.",
    "lineage.",
    "column.tag.",
    "quality.rule.created",
    "quality.rule.updated",
    "quality.rule.deleted",
    "policy.created",
    "policy.updated",
)


def triggers_evaluation(event_type: str) -> bool:
    return event_type.startswith(TRIGGERS)


@dataclass(frozen=True)
class Finding:
    """One asset that breaks a policy now. A lineage finding's `path` is text (`asset`
    or `asset#column` per step); `path_assets` holds each step's asset and `far_end`
    the step its `reason` names, last in the reason, so a reader's view can put
    stand-ins in both without reading the text (`finding_privacy`)."""

    asset_id: str
    reason: str
    path: tuple[str, ...] | None = None
    path_assets: tuple[str, ...] | None = None
    far_end: str | None = None
    # The path's assets in private domains when stored ((id, domain)): no part of the
    # finding, kept to place its resolution once such an asset is gone.
    hidden: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def as_event(self, policy_id: str) -> dict[str, Any]:
        data: dict[str, Any] = {"policy_id": policy_id, "asset_id": self.asset_id}
        data["reason"] = self.reason
        if self.path is not None:
            data["path"] = list(self.path)
        if self.path_assets is not None:
            data["path_assets"] = list(self.path_assets)
        if self.far_end is not None:
            data["far_end"] = self.far_end
        return data

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Finding:
        """A finding as stored (a violation record or an evaluation's row)."""
        path, assets = record.get("path"), record.get("path_assets")
        return cls(
            str(record["asset_id"]),
            str(record["reason"]),
            tuple(path) if path is not None else None,
            tuple(assets) if assets is not None else None,
            record.get("far_end"),
            tuple(zip(record.get("hidden_ids") or (), record.get("hidden_in") or (), strict=True)),
        )


@dataclass
class Reconciled:
    opened: list[Finding] = field(default_factory=list)
    resolved: list[Finding] = field(default_factory=list)
    # Every violation open after this evaluation, with when it was first seen.
    open: list[tuple[Finding, str]] = field(default_factory=list)
    # Those whose stored record must be (re)written: the opened and the changed ones.
    to_write: list[tuple[Finding, str]] = field(default_factory=list)


def reconcile(
    stored: Mapping[str, Mapping[str, Any]], found: Iterable[Finding], now: str
) -> Reconciled:
    """A violation is identified by its asset: a new reason or path (or a record that
    predates a field of it) for an asset that already violates the policy updates the
    record silently; only an asset starting or
    ceasing to violate is announced."""
    result = Reconciled()
    seen: set[str] = set()
    for finding in found:
        if finding.asset_id in seen:
            continue
        seen.add(finding.asset_id)
        before = stored.get(finding.asset_id)
        if before is None:
            result.opened.append(finding)
            result.open.append((finding, now))
            result.to_write.append((finding, now))
            continue
        result.open.append((finding, str(before["opened_at"])))
        if Finding.from_record({**before, "asset_id": finding.asset_id}) != finding:
            result.to_write.append((finding, str(before["opened_at"])))
    for asset_id in sorted(set(stored) - seen):
        result.resolved.append(Finding.from_record({**stored[asset_id], "asset_id": asset_id}))
    return result
