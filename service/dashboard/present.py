"""How values look on a page: template filters, and one line about each event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from service.models.events import Event


def segment(value: str) -> str:
    """An id as one path segment (ids may hold `/`, `:`, `#` ...)."""
    return quote(value, safe="")


def when(stamp: str | None) -> str:
    """`2026-11-23T10:04:05.123Z` as `2026-11-23 10:04 UTC`; a dash when absent."""
    if not stamp:
        return "—"
    return f"{stamp[:10]} {stamp[11:16]} UTC"


def moment(stamp: str | None) -> str:
    """`2026-11-23T10:04:05.123Z` as `2026-11-23 10:04:05 UTC`, to the second, where
    minutes are too coarse (the moment a lineage view shows, an asset's versions);
    "now" when absent."""
    if not stamp:
        return "now"
    return f"{stamp[:10]} {stamp[11:19]} UTC"


def field_time(stamp: str | None) -> str:
    """An instant as a UTC `<input type="datetime-local">` holds it: the shortest form,
    as browsers normalise the value (`…T10:04:05.120Z` is `…T10:04:05.12`, whole
    minutes drop their seconds); empty when absent. The field shows what the page
    rendered, so a reader (or a test) sees one spelling of the moment."""
    if not stamp:
        return ""
    local = stamp.removesuffix("Z")
    if "." in local:
        local = local.rstrip("0").removesuffix(".")
    return local.removesuffix(":00") if len(local) == 19 else local


def summary(event: Event) -> str:
    """A short line naming what the event is about."""
    data: Any = event.data if isinstance(event.data, dict) else {}
    if event.type.startswith("lineage.edge."):
        return f"{data.get('source')} → {data.get('target')}"
    if event.type.startswith("policy.violation."):
        return f"{data.get('asset_id')} breaks {data.get('policy_id')}: {data.get('reason', '')}"
    if event.type.startswith("quality.rule.") and "rule_id" in data:
        impact = data.get("impact") or {}
        count = impact.get("downstream_count")
        tail = f" ({count} downstream)" if count else ""
        return f"{data.get('rule_id')} on {data.get('asset_id')}{tail}"
    if event.type == "quality.result.recorded":
        result = data.get("result") or {}
        return f"{data.get('rule_id')}: {result.get('status', '')}"
    if event.type.endswith(".ingested"):
        edges = data.get("edges") if isinstance(data.get("edges"), dict) else None
        if edges is not None:
            return f"{data.get('project')}: {edges.get('created', 0)} new edges"
        return f"{data.get('received', 0)} edges received, {data.get('created', 0)} new"
    named = data.get("name") or data.get("username")
    return str(named or data.get("id") or data.get("webhook_id") or "")


def subject_asset(event: Event) -> str | None:
    """The asset an event is about, for a link; None when it is about something else."""
    data: Any = event.data if isinstance(event.data, dict) else {}
    if event.type == "asset.merged":
        return str(data.get("into"))
    if event.type.startswith("asset.") and event.type != "asset.deleted":
        return str(data.get("id"))
    value = data.get("asset_id")
    return str(value) if value else None


FILTERS: dict[str, Callable[..., Any]] = {
    "segment": segment,
    "when": when,
    "moment": moment,
    "field_time": field_time,
}
