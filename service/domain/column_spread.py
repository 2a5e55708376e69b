"""Where one column tag is inherited: a breadth-first tree over column lineage. Pure.

A tag set on a column is inherited by every column downstream of it along mappings
whose kind the tag's rule does not stop (`service.domain.column_kinds`; by default
masking, aggregation and indirect mappings stop it). Each inheriting column keeps one
parent, the column it got the tag from on a fewest-hop path from the nearest tagged
column, so "why is this column pii?" is answered by following parents back, and no
path is ever enumerated.

After a change the store reads the region it may affect (`columns.tag_region`): the
columns downstream of the change, with the mappings into them. Columns outside the
region keep what they hold and feed it in at its distance, so one multi-source walk over
the region alone settles it, in time linear in its mappings (times a log for the
queue). `recompute` answers what to rewrite and which columns gained or lost the tag.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from service.models.lineage import MappingKind

# What stops a tag when its rule says nothing else.
DEFAULT_STOPS: tuple[MappingKind, ...] = ("masking", "aggregation", "indirect")


@dataclass(frozen=True, order=True)
class Held:
    """How a column inherits the tag: over `distance` mappings from the tagged column
    `source`, the last one from `parent`, of kind `kind`."""

    distance: int
    source: str
    parent: str
    kind: str


@dataclass(frozen=True)
class Feed:
    """A mapping into a region column from `column` (of kind `kind`), which holds the
    tag directly, or inherited as `held` (None: not at all, or it is in the region)."""

    column: str
    kind: str
    direct: bool
    held_distance: int | None = None
    held_source: str | None = None


@dataclass(frozen=True)
class RegionColumn:
    key: str
    asset: str
    name: str
    direct: bool
    before: Held | None
    feeds: Sequence[Feed] = ()


@dataclass
class Change:
    """What one recomputation rewrites (`drop` then `rows`) and announces."""

    drop: list[str] = field(default_factory=list)
    rows: list[dict[str, object]] = field(default_factory=list)
    gained: list[tuple[RegionColumn, Held]] = field(default_factory=list)
    lost: list[tuple[RegionColumn, Held]] = field(default_factory=list)


def recompute(region: Iterable[RegionColumn], held_before: Iterable[RegionColumn] = ()) -> Change:
    """`held_before`: columns as they inherited the tag before a change deleted that
    inheritance with what it ran through (a deleted asset's columns, a mapping, or the
    column itself, left in no column lineage), read before it. A region column whose
    inheritance is gone counts as holding it before; one no longer there lost it."""
    earlier = {c.key: (c, c.before) for c in held_before if c.before is not None}
    columns = {
        c.key: replace(c, before=earlier[c.key][1]) if c.before is None and c.key in earlier else c
        for c in region
    }
    after = _walk(columns)
    change = Change()
    for key in sorted(columns):
        column, held = columns[key], after.get(key)
        if held == column.before:
            continue
        if column.before is not None:
            change.drop.append(key)
        if held is not None:
            change.rows.append({"key": key, **_as_row(held)})
        if column.before is None and held is not None:
            change.gained.append((column, held))
        elif held is None and column.before is not None:
            change.lost.append((column, column.before))
    change.lost += [earlier[key] for key in sorted(set(earlier) - set(columns))]
    return change


def _as_row(held: Held) -> dict[str, object]:
    return {
        "parent": held.parent,
        "source": held.source,
        "distance": held.distance,
        "kind": held.kind,
    }


def _walk(columns: dict[str, RegionColumn]) -> dict[str, Held]:
    """Fewest hops from any tagged column, ties broken by (source, parent, kind) so a
    recomputation gives the same tree. Columns holding the tag directly inherit nothing.
    The queue holds plain tuples (distance, source, parent, kind, column): comparing
    them is what the walk spends its time on."""
    queue: list[tuple[int, str, str, str, str]] = []
    children: dict[str, list[tuple[str, str]]] = {}
    for column in columns.values():
        for feed in column.feeds:
            if feed.column in columns:
                children.setdefault(feed.column, []).append((column.key, feed.kind))
            elif feed.direct:
                queue.append((1, feed.column, feed.column, feed.kind, column.key))
            elif feed.held_distance is not None and feed.held_source is not None:
                offer = (feed.held_distance + 1, feed.held_source, feed.column, feed.kind)
                queue.append((*offer, column.key))
        if column.direct:
            queue.append((0, column.key, "", "", column.key))
    heapq.heapify(queue)
    settled: dict[str, tuple[int, str, str, str]] = {}
    while queue:
        distance, source, parent, kind, key = heapq.heappop(queue)
        if key in settled or (distance > 0 and columns[key].direct):
            continue
        settled[key] = (distance, source, parent, kind)
        passed = key if distance == 0 else source
        for child, child_kind in children.get(key, ()):
            if child not in settled:
                heapq.heappush(queue, (distance + 1, passed, key, child_kind, child))
    return {key: Held(*held) for key, held in settled.items() if held[0] > 0}
