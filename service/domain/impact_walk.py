"""The walk downstream of a candidate's breaking changes, as bookkeeping over levels:
the store reads one level of neighbours per statement, this decides what is new.

A node is a whole asset `(asset, None)` or one column `(asset, column)`. Every seed
starts at distance 0 and the levels are read in order, so each node is kept once, at
its fewest hops, with the neighbour it was first reached from (ties broken by the
sorted order of the rows): `via` follows those back to a seed, with no path ever
enumerated. Cost is linear in the nodes and edges reached.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Node = tuple[str, str | None]


@dataclass(frozen=True, slots=True)
class Step:
    """One neighbour read from the graph: `source` (a frontier node) reaches `target`,
    whose asset has `owners`."""

    source: Node
    target: Node
    owners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reached:
    asset: str
    column: str | None
    distance: int
    owners: tuple[str, ...]
    path: tuple[Node, ...]  # from the seed (first) to this node (last)

    @property
    def via(self) -> tuple[str, ...]:
        return tuple(label(node) for node in self.path)


@dataclass
class Walk:
    """A breadth-first walk from `seeds`, at most `depth` levels."""

    seeds: Iterable[Node]
    depth: int
    parent: dict[Node, Node | None] = field(default_factory=dict)
    distance: dict[Node, int] = field(default_factory=dict)
    owners: dict[str, tuple[str, ...]] = field(default_factory=dict)
    frontier: list[Node] = field(default_factory=list)
    level: int = 0

    def __post_init__(self) -> None:
        for seed in sorted(set(self.seeds), key=_order):
            self.parent[seed] = None
            self.distance[seed] = 0
            self.frontier.append(seed)

    @property
    def done(self) -> bool:
        return not self.frontier or self.level >= self.depth

    def assets(self) -> list[str]:
        """The frontier's whole assets, for the next read."""
        return [asset for asset, column in self.frontier if column is None]

    def columns(self) -> list[tuple[str, str]]:
        """The frontier's columns, for the next read."""
        return [(asset, column) for asset, column in self.frontier if column is not None]

    def advance(self, steps: Iterable[Step]) -> None:
        """Take one level's neighbours: the ones not seen before form the next frontier."""
        self.level += 1
        fresh: list[Node] = []
        for step in sorted(steps, key=lambda s: (_order(s.source), _order(s.target))):
            self.owners.setdefault(step.target[0], step.owners)
            if step.target in self.parent:
                continue
            self.parent[step.target] = step.source
            self.distance[step.target] = self.level
            fresh.append(step.target)
        self.frontier = fresh

    def reached(self, excluded: set[str]) -> list[Reached]:
        """Every node reached past the seeds whose asset is not `excluded`, nearest
        first, then by asset and column."""
        found = [
            Reached(
                node[0], node[1], distance, self.owners.get(node[0], ()), tuple(self._path(node))
            )
            for node, distance in self.distance.items()
            if distance > 0 and node[0] not in excluded
        ]
        return sorted(found, key=lambda r: (r.distance, r.asset, r.column or ""))

    def _path(self, node: Node) -> Sequence[Node]:
        path: list[Node] = []
        at: Node | None = node
        while at is not None:
            path.append(at)
            at = self.parent[at]
        return path[::-1]


def label(node: Node) -> str:
    """`asset` for a whole asset, `asset.column` for a column."""
    asset, column = node
    return asset if column is None else f"{asset}.{column}"


def _order(node: Node) -> tuple[str, str]:
    return (node[0], node[1] or "")
