"""An asset's column provenance as a reader sees it: pure.

A column inherits a tag along column lineage; its `from` and `path` name the columns
it came by, of other assets too. A column of an asset the reader may not read becomes
a stand-in: the asset `redacted:<n>` (one per asset) and the column `redacted:<m>` (one
per column), numbered in the order the listing first shows them (columns in their
order, tags by name, each path from the tagged column on), an order set by what the
reader can read, never by the hidden ids. The mapping kinds stay, so the path keeps
its length and shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.models.columns import AssetColumn, InheritedTag, PathStep
from service.models.lineage import ColumnRef


def sources(columns: Iterable[AssetColumn]) -> set[str]:
    """Every asset a listing's provenance names: whose places to look up."""
    return {step.asset for c in columns for i in c.inherited for step in i.path} | {
        i.from_.asset for c in columns for i in c.inherited
    }


@dataclass
class _StandIns:
    hidden: Callable[[str], bool]
    assets: dict[str, str] = field(default_factory=dict)
    columns: dict[tuple[str, str], str] = field(default_factory=dict)

    def ref(self, asset: str, column: str) -> tuple[str, str]:
        if not self.hidden(asset):
            return asset, column
        stand_in = self.assets.setdefault(asset, f"redacted:{len(self.assets) + 1}")
        return stand_in, self.columns.setdefault(
            (asset, column), f"redacted:{len(self.columns) + 1}"
        )


def redact_provenance(
    columns: Sequence[AssetColumn],
    places: Mapping[str, Mapping[str, Any]],
    unreadable: Callable[[Mapping[str, Any]], bool],
) -> list[AssetColumn]:
    """`columns` with each provenance step in an asset the reader may not read a stand-in
    (`places`: each asset's `domain` and `private`; `unreadable` decides one place)."""
    names = _StandIns(lambda asset: asset in places and unreadable(places[asset]))
    if not any(names.hidden(asset) for asset in sources(columns)):
        return list(columns)
    return [
        column.model_copy(update={"inherited": [_inherited(i, names) for i in column.inherited]})
        for column in columns
    ]


def _inherited(tag: InheritedTag, names: _StandIns) -> InheritedTag:
    """The path is named first (from the tagged column on), then `from`, its first step."""
    path = []
    for step in tag.path:
        asset, column = names.ref(step.asset, step.column)
        path.append(PathStep(asset=asset, column=column, kind=step.kind))
    asset, column = names.ref(tag.from_.asset, tag.from_.column)
    return InheritedTag(tag=tag.tag, from_=ColumnRef(asset=asset, column=column), path=path)
