"""Multi-source breadth-first walks over lineage, for the policy kinds that ask
"is anything of set A within k hops of set B".

Walking from each source separately costs sources x reach, which grows with the
square of the graph. One walk from all sources at once visits each asset a bounded
number of times, so its cost follows the assets and edges reached. The database
answers one hop per round trip (`policies.children` / `policies.parents`); this
module keeps the frontier, the distances and the way back, with no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from service.domain.policies import Finding


@dataclass(frozen=True)
class Label:
    """How an asset was reached: from which source, how far, and the next asset on
    the way back to that source (None at the source itself)."""

    origin: str
    distance: int
    via: str | None


@dataclass
class Walk:
    """A breadth-first walk from several sources; each asset keeps at most `labels`
    labels, each from a different source (2 lets a source learn of the nearest
    *other* source, which "flows into a restricted asset" needs)."""

    labels: int = 1
    reached: dict[str, list[Label]] = field(default_factory=dict)
    frontier: list[tuple[str, Label]] = field(default_factory=list)

    @classmethod
    def start(cls, sources: Iterable[str], labels: int = 1) -> Walk:
        walk = cls(labels)
        for source in sorted(set(sources)):
            label = Label(source, 0, None)
            walk.reached[source] = [label]
            walk.frontier.append((source, label))
        return walk

    def frontier_ids(self) -> list[str]:
        return sorted({node for node, _ in self.frontier})

    def advance(self, steps: Iterable[tuple[str, str]]) -> None:
        """One hop: `steps` are (frontier asset, neighbour) pairs from the database.
        Each frontier label offers itself to each neighbour; a neighbour takes it if it
        has room and no label from that source yet. Sorted, so runs are repeatable."""
        by_node: dict[str, list[Label]] = {}
        for node, label in self.frontier:
            by_node.setdefault(node, []).append(label)
        offers = sorted(
            (label.origin, node, neighbour)
            for node, neighbour in steps
            for label in by_node.get(node, ())
        )
        frontier: list[tuple[str, Label]] = []
        for origin, node, neighbour in offers:
            labels = self.reached.setdefault(neighbour, [])
            if len(labels) >= self.labels or any(lb.origin == origin for lb in labels):
                continue
            distance = next(lb.distance for lb in by_node[node] if lb.origin == origin) + 1
            label = Label(origin, distance, node)
            labels.append(label)
            frontier.append((neighbour, label))
        self.frontier = frontier

    def nearest(self, node: str, other_than: str | None = None) -> Label | None:
        """The nearest source's label, optionally from a source other than `other_than`."""
        candidates = [lb for lb in self.reached.get(node, ()) if lb.origin != other_than]
        return min(candidates, key=lambda lb: (lb.distance, lb.origin), default=None)

    def way_back(self, node: str, label: Label) -> list[str]:
        """The assets from `node` back to the label's source, following `via`."""
        path = [node]
        while label.via is not None:
            node = label.via
            path.append(node)
            label = next(lb for lb in self.reached[node] if lb.origin == label.origin)
        return path


def lacking_tag(walk: Walk, lacking: Iterable[str], tag: str) -> list[Finding]:
    """tag_propagation findings: each asset reached downstream without the tag, with the
    path from its nearest tagged source."""
    findings = []
    for node in lacking:
        label = walk.nearest(node)
        if label is None:
            continue
        path = tuple(reversed(walk.way_back(node, label)))
        reason = f"lacks tag {tag}, carried {label.distance} hop(s) upstream by {label.origin}"
        findings.append(Finding(node, reason, path, path, label.origin))
    return findings


def flowing_into(walk: Walk, governed: Iterable[str]) -> list[Finding]:
    """restricted_flow findings: each governed asset that reaches a target other than
    itself, with the path to the nearest one."""
    findings = []
    for node in governed:
        label = walk.nearest(node, other_than=node)
        if label is None:
            continue
        reason = f"flows within {label.distance} hop(s) into {label.origin}"
        path = tuple(walk.way_back(node, label))
        findings.append(Finding(node, reason, path, path, label.origin))
    return findings
