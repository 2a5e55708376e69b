"""A lineage walk with a fan-out cap, as pure steps: record what each hop expanded
(`Reach`), then cut one page from the whole capped neighbourhood (`fanout_page`).

The store runs one statement per hop; each node reached is expanded once, at most
`fanout` neighbours (first by id), so the walk is linear in the nodes and edges it
reaches. Pages follow the same (distance, hidden, key) order and cursor as the
one-statement walk; the edges are those the walk followed, each on the page of its later end.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from service.domain.lineage_pages import (
    SIDES,
    After,
    Node,
    Page,
    Position,
    Walk,
    assemble_page,
    position,
    unreadable_in,
)


@dataclass
class Reach:
    """One side's walk so far: nodes at their first-reached hop, the edges followed
    (source, target, transformation), and the nodes whose neighbours were cut."""

    side: str
    root: str
    nodes: dict[str, Node] = field(default_factory=dict)
    owners: dict[str, list[str]] = field(default_factory=dict)
    edges: list[tuple[str, str, str | None]] = field(default_factory=list)
    capped: list[dict[str, Any]] = field(default_factory=list)

    def expand(
        self, node_id: str, kept: Sequence[Mapping[str, Any]], total: int, distance: int
    ) -> list[str]:
        """Record one node's expansion at hop `distance`; the ids it reached first."""
        if total > len(kept):
            self.capped.append(
                {"id": node_id, "direction": self.side, "shown": len(kept), "total": total}
            )
        fresh = []
        for item in kept:
            other = item["node"]["id"]
            ends = (node_id, other) if self.side == "downstream" else (other, node_id)
            self.edges.append((*ends, item["transformation"]))
            if other != self.root and other not in self.nodes:
                self.nodes[other] = {**item["node"], "distance": distance, "direction": self.side}
                self.owners[other] = list(item["owners"])
                fresh.append(other)
        return fresh


def fanout_page(
    walk: Walk,
    root: Node,
    reaches: Sequence[Reach],
    after: After,
    take: int,
    readable: Container[str] | None = None,
) -> Page:
    """One page of the capped neighbourhood, cut as the one-statement walk cuts its
    own: a node reached both ways once at its fewer hops (downstream on a tie), the
    shown ones after each side's position in (distance, hidden, key) order. `readable`:
    the private domains the caller may read (None: all), for the filters
    (`Filters.shows`) and the order (`lineage_pages.position`)."""
    best: dict[str, Node] = {}
    owners: dict[str, list[str]] = {}
    for reach in sorted(reaches, key=lambda r: SIDES.index(r.side)):
        owners.update(reach.owners)
        for node_id, node in reach.nodes.items():
            if node_id not in best or node["distance"] < best[node_id]["distance"]:
                best[node_id] = node
    ordered = sorted(best.values(), key=lambda n: position(n, readable))
    shown = [
        n for n in ordered if walk.filters.shows({**n, "owners": owners.get(n["id"])}, readable)
    ]
    hidden = {side: sum(1 for n in ordered if n["direction"] == side) for side in SIDES}
    for node in shown:
        hidden[node["direction"]] -= 1
    pending = [n for n in shown if _after(position(n, readable), after.of(n["direction"]))]
    taken = pending[:take]
    counts = {side: sum(1 for n in pending if n["direction"] == side) for side in SIDES}
    page = assemble_page(
        walk, root, after, taken, _edges(reaches, best, shown, taken), counts, hidden, readable
    )
    unseen = {n["id"] for n in ordered if unreadable_in(n, readable)}
    return _with_caps(page, reaches, taken, {n["id"] for n in shown}, after.started, unseen)


def _after(place: Position, last: Position | None) -> bool:
    return last is None or place > last


def _edges(
    reaches: Sequence[Reach], best: Mapping[str, Node], shown: Sequence[Node], taken: Sequence[Node]
) -> list[tuple[str, str, str | None]]:
    """Followed edges between shown nodes (or the root) of one side, each on the page
    of its later end."""
    rank = {n["id"]: i + 1 for i, n in enumerate(shown)}  # the root ranks 0
    here = {n["id"] for n in taken}
    found = []
    for reach in reaches:
        for source, target, transformation in reach.edges:
            ends = [e for e in (source, target) if e != reach.root]
            if not all(e in rank and best[e]["direction"] == reach.side for e in ends):
                continue
            later = max((source, target), key=lambda e: rank.get(e, 0))
            if later in here:
                found.append((source, target, transformation))
    return found


def _with_caps(
    page: Page,
    reaches: Sequence[Reach],
    taken: Sequence[Node],
    shown: set[str],
    started: bool,
    unseen: set[str],
) -> Page:
    """The cuts of this page's nodes; the first page also has the root's and those of
    nodes the filters hid, so each cut is listed once across pages, except those of
    nodes the caller may not read (`unseen`): no stand-in on the page would name them."""
    here = {n["id"] for n in taken}
    capped = [
        cap
        for reach in reaches
        for cap in reach.capped
        if cap["id"] in here or (not started and cap["id"] not in shown and cap["id"] not in unseen)
    ]
    return replace(page, capped=sorted(capped, key=lambda c: (c["id"], c["direction"])))
