"""What changed between an asset's versions, computed when history is read.

A version is stored as a snapshot of the asset node's properties (see
`cypher/assets/record_versions.cypher`), never as a diff: storage grows by one
snapshot per change, and what a change means can be refined without rewriting
what is stored. Consecutive snapshots are compared here field by field, and the
columns (kept as `columns_json`) by name: added, removed, retyped, or changed in
their description or tags.

The first version (or the oldest one kept) is compared with nothing: every field
that has a value is `set` from null and every column is `added`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from service.domain.assets import PROPERTY_PREFIX
from service.models.asset_history import AssetChange, AssetVersion

Snapshot = Mapping[str, Any]
# The fields a change names, in the order changes list them.
FIELDS = (
    "deleted",
    "merged_into",
    "placeholder",
    "name",
    "type",
    "platform",
    "description",
    "owners",
    "tags",
    "dataset",
    "aliases",
)
_LISTS = ("owners", "tags", "aliases")


def fields_of(snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot's fields as the API names them; null for none (an empty list too)."""
    view: dict[str, Any] = {name: snapshot.get(name) for name in FIELDS}
    view["deleted"] = bool(snapshot.get("deleted", False))
    view["placeholder"] = bool(snapshot.get("placeholder", False))
    for name in _LISTS:
        view[name] = list(snapshot.get(name) or []) or None
    view["dataset"] = (
        {"namespace": snapshot["dataset_namespace"], "name": snapshot["dataset_name"]}
        if snapshot.get("dataset_key")
        else None
    )
    for key in sorted(k for k in snapshot if k.startswith(PROPERTY_PREFIX)):
        view["properties." + key[len(PROPERTY_PREFIX) :]] = snapshot[key]
    return view


def columns_of(snapshot: Snapshot) -> dict[str, dict[str, Any]]:
    """The declared columns by name, in their declared order."""
    raw = snapshot.get("columns_json")
    return {c["name"]: c for c in orjson.loads(raw)} if raw else {}


_NOTHING: dict[str, Any] = {"deleted": False}


def field_changes(before: Snapshot | None, after: Snapshot) -> list[AssetChange]:
    old = fields_of(before) if before is not None else _NOTHING
    new = fields_of(after)
    names = [*new, *(k for k in old if k not in new)]
    return [
        AssetChange(field=name, change="set", from_=old.get(name), to=new.get(name))
        for name in names
        if old.get(name) != new.get(name)
    ]


def _column_change(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    if old.get("type") != new.get("type"):
        return "retyped"
    return "changed" if old != new else None


def column_changes(before: Snapshot | None, after: Snapshot) -> list[AssetChange]:
    """Columns of `after` in their order (added, retyped, changed), then those removed."""
    old = columns_of(before) if before is not None else {}
    new = columns_of(after)
    changes: list[AssetChange] = []
    for name, column in new.items():
        kind = "added" if name not in old else _column_change(old[name], column)
        if kind:
            changes.append(
                AssetChange(
                    field="columns", column=name, change=kind, from_=old.get(name), to=column
                )
            )
    changes.extend(
        AssetChange(field="columns", column=name, change="removed", from_=column)
        for name, column in old.items()
        if name not in new
    )
    return changes


def changes(before: Snapshot | None, after: Snapshot) -> list[AssetChange]:
    """What `after` changed from `before` (None: the version has no predecessor). A
    deletion keeps the fields of the version before, so it reads as `deleted` set."""
    return [*field_changes(before, after), *column_changes(before, after)]


def versions(snapshots: Sequence[Snapshot]) -> list[AssetVersion]:
    """Consecutive snapshots, newest first, each with its changes from the next one in
    the list; the last has no predecessor here (a page asks for one more than it
    shows, so only the oldest version has none)."""
    return [
        AssetVersion(
            version=int(snapshot["version"]),
            at=str(snapshot["at"]),
            actor=str(snapshot["actor"]),
            deleted=bool(snapshot.get("deleted", False)),
            changes=changes(snapshots[i + 1] if i + 1 < len(snapshots) else None, snapshot),
        )
        for i, snapshot in enumerate(snapshots)
    ]
