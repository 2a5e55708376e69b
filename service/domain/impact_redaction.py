"""Change impact that redacts: the assets of a report (changed, impacted, or on a path)
that the caller may not read, in a private domain where they hold no role, become
stand-ins, as in a traversal. Pure: the report's nodes and each asset's place in, the
names to show out.

A hidden asset is `redacted:<n>` (one per asset in the report) and a column of it
`redacted:<m>` (one per column): a column's name would tell the asset's schema. The
stand-ins come after the readable items (at each distance) and are numbered in the
order the answer shows them, so neither place nor number tells where a hidden id sorts. The
report names the team owning the asset's domain instead of its owners, and keeps every
change and every impacted node, so the totals stay complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from service.domain.access.principal import Principal
from service.domain.impact import Change
from service.domain.impact_walk import Node, Reached, label
from service.domain.redaction import unreadable


@dataclass
class Hiding:
    """The hidden assets of one report; their stand-ins are numbered (`number`) in the
    order the answer shows them, which is set by what the caller can read."""

    teams: dict[str, str | None] = field(default_factory=dict)  # hidden id -> owning team
    assets: dict[str, str] = field(default_factory=dict)  # real id -> stand-in id
    columns: dict[Node, str] = field(default_factory=dict)  # real node -> stand-in column

    def hidden(self, asset: str) -> bool:
        return asset in self.teams

    def number(self, shown: Iterable[Node]) -> None:
        """Number the stand-ins in the order of `shown`, the answer's nodes as it lists
        them (each change, then each impacted node followed by its path)."""
        for node in shown:
            asset, column = node
            if not self.hidden(asset):
                continue
            self.assets.setdefault(asset, f"redacted:{len(self.assets) + 1}")
            if column is not None:
                self.columns.setdefault(node, f"redacted:{len(self.columns) + 1}")

    def node(self, node: Node) -> Node:
        """The node as the caller sees it (after `number`)."""
        asset, column = node
        if asset not in self.assets:
            return node
        return (self.assets[asset], None if column is None else self.columns[node])

    def team(self, asset: str) -> str | None:
        return self.teams.get(asset)

    @property
    def count(self) -> int:
        """Stand-in assets in the report."""
        return len(self.teams)

    def change_order(self, change: Change) -> tuple[str, ...]:
        """Readable changes first in their order (a stable sort keeps it), then hidden
        ones by what a stand-in shows (team, kind): never by the hidden id."""
        if not self.hidden(change.asset):
            return ("0",)
        return ("1", self.team(change.asset) or "", change.kind, str(change.column is None))

    def reached_order(self, reached: Reached) -> tuple[int, str, tuple[str, ...]]:
        """Nearest first; at each distance the readable nodes in their order, then the
        hidden ones by team, then by the readable steps of their path."""
        if not self.hidden(reached.asset):
            return (reached.distance, "0", ())
        steps = tuple("" if self.hidden(a) else label((a, c)) for a, c in reached.path)
        return (reached.distance, "1", (self.team(reached.asset) or "", *steps))


def hiding(
    principal: Principal | None,
    nodes: Iterable[Node],
    places: Mapping[str, Mapping[str, Any]],
    teams: Mapping[str, str],
) -> Hiding:
    """The assets among `nodes` that `principal` may not read, with their owning teams;
    `places` gives each asset's `domain` and `private` (an asset not there, such as one
    the candidate adds, is readable)."""
    found = Hiding()
    for asset, _ in nodes:
        place = places.get(asset)
        if place is None or asset in found.teams or not unreadable(principal, place):
            continue
        found.teams[asset] = teams.get(str(place.get("domain")))
    return found
