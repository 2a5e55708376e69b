"""The graphs both services are measured on, built from a seed so that every run (and
every machine) walks the same edges.

A warehouse: tables in layers (sources, staging, marts, ...), each table fed by 1-4
tables, mostly from the layer just below and otherwise from any earlier layer, the
parent picked with a skew so that a few hub tables fan out widely. A lattice: layers
of two tables each fed by both tables of the layer below, so a walk of N hops from the
top meets 2^N distinct paths but only 2N+1 tables.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

PARENTS = (1, 2, 2, 2, 3, 3, 3, 4)


@dataclass(frozen=True)
class Dag:
    """Table names by layer and the (source, target) edges between them."""

    layers: list[list[str]]
    edges: list[tuple[str, str]]

    @property
    def tables(self) -> list[str]:
        return [name for layer in self.layers for name in layer]


def warehouse(tables: int, layers: int, seed: int = 42) -> Dag:
    rng = random.Random(seed)
    per_layer = tables // layers
    names = [[f"wh.l{layer:02d}.t{i:06d}" for i in range(per_layer)] for layer in range(layers)]
    edges: set[tuple[str, str]] = set()
    for layer in range(1, layers):
        for child in names[layer]:
            for _ in range(rng.choice(PARENTS)):
                source_layer = layer - 1 if rng.random() < 0.7 else rng.randrange(layer)
                parent = names[source_layer][int(per_layer * rng.random() ** 2)]
                edges.add((parent, child))
    ordered = sorted(edges)
    rng.shuffle(ordered)
    return Dag(names, ordered)


def lattice_top(hops: int) -> str:
    return f"lattice{hops}.top"


def lattice(hops: int = 20) -> Dag:
    """One top table over `hops` layers of two: 2^hops paths down to the bottom layer.
    Tables are named by `hops`, so lattices of several sizes can share a graph."""
    names = [[f"lattice{hops}.l{layer:02d}.{side}" for side in "ab"] for layer in range(hops)]
    names.append([lattice_top(hops)])
    edges = [
        (parent, child)
        for below, above in itertools.pairwise(names)
        for parent in below
        for child in above
    ]
    return Dag(names, edges)


def sample_roots(dag: Dag, side: str, count: int, seed: int = 7) -> list[str]:
    """Upstream walks start in the top layer and downstream walks in the bottom one,
    so that every depth up to the number of layers reaches further."""
    layer = dag.layers[-1] if side == "upstream" else dag.layers[0]
    reached = {t for _, t in dag.edges} if side == "upstream" else {s for s, _ in dag.edges}
    candidates = sorted(name for name in layer if name in reached)
    return random.Random(seed).sample(candidates, min(count, len(candidates)))
