"""Change impact that redacts: the assets of a report (changed, impacted, or on a path)
that the caller may not read, in a private domain where they hold no role, become
stand-ins, as in a traversal. Pure: the report's nodes and each asset's place in, the
names to show out.

A hidden asset is `redacted:<n>` (one per asset in the report) and a column of it
`redacted:<m>` (one per column): a column's name would tell the asset's schema. The
report names the team owning the asset's domain instead of its owners, and keeps every
change and every impacted node, so the totals stay complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from service.domain.access.principal import Principal
from service.domain.impact_walk import Node
from service.domain.redaction import unreadable


@dataclass
class Hiding:
    """The stand-ins of one report, numbered in the order their nodes were first met."""

    assets: dict[str, str] = field(default_factory=dict)  # real id -> stand-in id
    columns: dict[Node, str] = field(default_factory=dict)  # real node -> stand-in column
    teams: dict[str, str | None] = field(default_factory=dict)  # real id -> owning team

    def hidden(self, asset: str) -> bool:
        return asset in self.assets

    def node(self, node: Node) -> Node:
        """The node as the caller sees it."""
        asset, column = node
        if asset not in self.assets:
            return node
        return (self.assets[asset], None if column is None else self.columns[node])

    def team(self, asset: str) -> str | None:
        return self.teams.get(asset)

    @property
    def count(self) -> int:
        """Stand-in assets in the report."""
        return len(self.assets)


def hiding(
    principal: Principal | None,
    nodes: Iterable[Node],
    places: Mapping[str, Mapping[str, Any]],
    teams: Mapping[str, str],
) -> Hiding:
    """Stand-ins for the nodes (in report order: changes, then impacted nodes and their
    paths) whose asset `principal` may not read; `places` gives each asset's `domain`
    and `private` (an asset not there, such as one the candidate adds, is readable)."""
    found = Hiding()
    for node in nodes:
        asset, column = node
        place = places.get(asset)
        if place is None or not unreadable(principal, place):
            continue
        if asset not in found.assets:
            found.assets[asset] = f"redacted:{len(found.assets) + 1}"
            found.teams[asset] = teams.get(str(place.get("domain")))
        if column is not None and node not in found.columns:
            found.columns[node] = f"redacted:{len(found.columns) + 1}"
    return found
