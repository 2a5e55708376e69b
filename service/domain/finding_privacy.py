"""A policy finding as a reader without access to some of its assets sees it: pure.

A lineage finding (`tag_propagation`, `restricted_flow`, `restricted_column_flow`)
carries its path as text (`asset` or `asset#column` per step) beside structured
fields that say what the text holds: `path_assets`, the asset of each step, and
`far_end`, the one step its `reason` names, always written last in the reason. A
step whose asset the reader may not read becomes a stand-in (`redacted:<n>`, with
`#redacted:<m>` for its column), numbered in path order, and the reason names the
far end's stand-in. A finding written before those fields existed says nothing
certain of where its reason names an asset, so when any of its steps is hidden its
reason is replaced whole.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any

# The reason shown when a hidden step cannot be cut out of it exactly.
WITHHELD = "the path reaches assets you may not read"


def assets_of(finding: Mapping[str, Any]) -> list[str]:
    """The asset of each path step: `path_assets`, or the steps themselves for a
    finding that predates it (its steps were asset ids)."""
    path = finding.get("path")
    if not isinstance(path, list):
        return []
    listed = finding.get("path_assets")
    if isinstance(listed, list) and len(listed) == len(path):
        return [str(a) for a in listed]
    return [str(step) for step in path]


def redact_finding(finding: Mapping[str, Any], concealed: Container[str]) -> Mapping[str, Any]:
    """`finding` with each step whose asset is in `concealed` a stand-in; `finding`
    itself when none is."""
    assets = assets_of(finding)
    if not any(asset in concealed for asset in assets):
        return finding
    stand_ins: dict[str, str] = {}
    columns: dict[str, str] = {}
    path: list[str] = []
    shown_assets: list[str] = []
    for step, asset in zip(finding["path"], assets, strict=True):
        if asset not in concealed:
            path.append(step)
            shown_assets.append(asset)
            continue
        stand_in = stand_ins.setdefault(asset, f"redacted:{len(stand_ins) + 1}")
        if step != asset:
            stand_in += "#" + columns.setdefault(str(step), f"redacted:{len(columns) + 1}")
        path.append(stand_in)
        shown_assets.append(stand_ins[asset])
    renamed = dict(zip(finding["path"], path, strict=True))
    shown = {**finding, "path": path, "reason": _reason(finding, renamed)}
    if "path_assets" in finding:
        shown["path_assets"] = shown_assets
    if isinstance(finding.get("far_end"), str):
        shown["far_end"] = renamed.get(finding["far_end"], finding["far_end"])
    return shown


def _reason(finding: Mapping[str, Any], renamed: Mapping[str, str]) -> str:
    reason, far_end = str(finding.get("reason") or ""), finding.get("far_end")
    if not isinstance(far_end, str) or far_end not in renamed or not reason.endswith(far_end):
        return WITHHELD
    return reason[: len(reason) - len(far_end)] + renamed[far_end]


def concealed(hidden: Iterable[Sequence[Any]], readable: Sequence[str] | None) -> set[str]:
    """Of `hidden` (`[asset, private domain]` pairs), the assets a reader who may read
    the private domains `readable` (None: all) may not read."""
    if readable is None:
        return set()
    return {str(asset) for asset, domain in hidden if domain not in readable}
