"""Pure logic of lineage through time: reading an `as_of` instant (and its integer form),
and the difference between a neighbourhood at two instants."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from service import clock

# The `until` of an interval still open: history arrays cannot hold null, and every
# stored instant (`clock.format_time`, a 4-digit year) sorts before it.
OPEN = "9999-12-31T23:59:59.999Z"

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)

# RFC 3339 date-time: a date, `T` (or a space), a time with optional fraction and a
# required offset. A `+` left unencoded in a query string arrives as a space, so a
# space before the offset is read as `+`.
_INSTANT = re.compile(
    r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)([Zz]|[+\- ]\d{2}:\d{2})"
)


def parse_instant(raw: str, now: str | None = None) -> str | None:
    """`raw` as the graph stores instants (UTC, milliseconds, `Z`), or None when it is
    not an RFC 3339 instant with an offset. An instant after `now` (default: the
    clock) is `now`: the future looks like the present."""
    match = _INSTANT.fullmatch(raw.strip())
    if match is None:
        return None
    date, time, offset = match.groups()
    offset = "+00:00" if offset in "Zz" else "+" + offset[1:] if offset[0] == " " else offset
    try:
        moment = datetime.fromisoformat(f"{date}T{time[:15]}{offset}")
    except ValueError:
        return None
    instant = clock.format_time(moment)
    current = now or clock.now_iso()
    return min(instant, current)


def instant_ms(instant: str) -> int:
    """`instant`, as the graph stores instants, in milliseconds since the epoch: the
    form an edge history keeps the instants an as_of walk compares in
    (`history.record_edges`, Cypher's `datetime(...).epochMillis`). An integer is
    read from the property record itself and compared as a number, where a stored
    instant string takes a record of its own and is decoded at every read."""
    moment = datetime.fromisoformat(instant)
    return (moment - _EPOCH) // _MILLISECOND


def as_of_params(as_of: str, now: str) -> dict[str, str | int]:
    """An as_of walk's parameters (`lineage.traverse_as_of`): the instant, never after
    `now` (the future looks like the present), and the same in epoch milliseconds,
    which the walk compares with the edge histories' summary."""
    instant = min(as_of, now)
    return {"as_of": instant, "as_of_ms": instant_ms(instant)}


def _edge_key(edge: Mapping[str, Any]) -> tuple[str, str]:
    return (edge["source"], edge["target"])


def diff(
    before_nodes: Sequence[Mapping[str, Any]],
    before_edges: Iterable[Mapping[str, Any]],
    after_nodes: Sequence[Mapping[str, Any]],
    after_edges: Iterable[Mapping[str, Any]],
) -> dict[str, Any]:
    """What changed between two answers of one traversal: nodes and edges in the
    later only (`added`, as the later shows them) or the earlier only (`removed`, as
    the earlier showed them), and edges in both whose transformation differs
    (`changed`, with the earlier one as `previous_transformation`). The root counts
    as a node of each answer it is in. Sorted: nodes by id, edges by (source, target)."""
    before = {n["id"]: n for n in before_nodes}
    after = {n["id"]: n for n in after_nodes}
    old = {_edge_key(e): e for e in before_edges}
    new = {_edge_key(e): e for e in after_edges}
    changed = [
        {**new[key], "previous_transformation": old[key].get("transformation")}
        for key in sorted(old.keys() & new.keys())
        if old[key].get("transformation") != new[key].get("transformation")
    ]
    return {
        "added": {
            "nodes": [after[i] for i in sorted(after.keys() - before.keys())],
            "edges": [new[k] for k in sorted(new.keys() - old.keys())],
        },
        "removed": {
            "nodes": [before[i] for i in sorted(before.keys() - after.keys())],
            "edges": [old[k] for k in sorted(old.keys() - new.keys())],
        },
        "changed": {"edges": changed},
    }
