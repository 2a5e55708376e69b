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
    """One asset that breaks a policy now."""

    asset_id: str
    reason: str
    path: tuple[str, ...] | None = None

    def as_event(self, policy_id: str) -> dict[str, Any]:
        data: dict[str, Any] = {"policy_id": policy_id, "asset_id": self.asset_id}
        data["reason"] = self.reason
        if self.path is not None:
            data["path"] = list(self.path)
        return data


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
    """A violation is identified by its asset: a new reason or path for an asset that
    already violates the policy updates the record silently; only an asset starting or
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
        path = before.get("path")
        if (before["reason"], tuple(path) if path is not None else None) != (
            finding.reason,
            finding.path,
        ):
            result.to_write.append((finding, str(before["opened_at"])))
    for asset_id in sorted(set(stored) - seen):
        before = stored[asset_id]
        path = before.get("path")
        result.resolved.append(
            Finding(asset_id, str(before["reason"]), tuple(path) if path is not None else None)
        )
    return result
