"""The lineage page through time: its "As of" and "Compare with" fields read as
instants, and the view they ask for.

As of one moment, the view is the API's traversal at that moment. Compared with
another, it is the graph at both moments drawn together: the later neighbourhood and
what the earlier one held that the later lacks, each node and edge marked `added`,
`removed` or unmarked, as `store.lineage_diff.compared` (under the API's `/diff`) finds
them. The view is marked by real ids and then redacted once, so an asset the reader may
not see is one stand-in ('Hidden · <team>') whether it was added, removed or kept.
The two moments are taken in time order whichever field holds which.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from service import clock
from service.domain.access.principal import Principal
from service.domain.history import parse_instant
from service.domain.lineage import LineageView
from service.domain.lineage_pages import Seal
from service.domain.redaction import foreign_ends, hidden_domains, redact
from service.errors import validation_error
from service.graph import Graph
from service.store import domain_guard, lineage_diff
from service.store import lineage as lineage_store

# What an <input type="datetime-local"> sends: a date and time with no offset, which
# the page means as UTC (every time on these pages is UTC).
_LOCAL = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?")
INSTANT_CHARS = 64
_EXAMPLE = "2026-11-20T10:00:00Z"


def instant(request: Request, name: str) -> str | None:
    """The query's `name` as the graph stores instants, None when absent or empty; an
    RFC 3339 instant, or a date and time without offset read as UTC. 422 naming the
    field for anything else."""
    raw = (request.query_params.get(name) or "").strip()
    if not raw:
        return None
    if len(raw) <= INSTANT_CHARS and _LOCAL.fullmatch(raw):
        raw = f"{raw}:00Z" if len(raw) == 16 else f"{raw}Z"
    found = parse_instant(raw) if len(raw) <= INSTANT_CHARS else None
    if found is None:
        raise validation_error(
            ("query", name),
            f"{name} must be a date and time, e.g. {_EXAMPLE} (UTC when no offset is given)",
            "datetime_parsing",
        )
    return found


@dataclass(frozen=True)
class Moments:
    """What the page asked for: the graph as of `as_of` (None: now), compared with
    `compare` (None: not compared)."""

    as_of: str | None
    compare: str | None

    @classmethod
    def of(cls, request: Request) -> Moments:
        return cls(instant(request, "as_of"), instant(request, "compare"))


@dataclass(frozen=True)
class Walk:
    """The traversal a view draws; `cursor` continues after an earlier page of it."""

    root: str
    direction: str
    depth: int
    limit: int
    cursor: str | None = None
    viewer: Principal | None = None  # who looks: what they may not read is redacted


async def view_at(
    graph: Graph, walk: Walk, moments: Moments, seal: Seal | None = None
) -> tuple[LineageView, dict[str, Any]]:
    """The view to draw, and what the page says of its time (`as_of`, and `compare`:
    the moment asked, the span compared). Changes are marked on the view's nodes and
    edges (`change`), the removed ones added to it. A compared view is one answer,
    never paged: a cursor with `compare` is refused (422 naming `cursor`)."""
    if moments.compare is None:
        view = await lineage_store.traverse(
            graph,
            walk.root,
            walk.direction,
            walk.depth,
            walk.limit,
            as_of=moments.as_of,
            cursor=walk.cursor,
            viewer=walk.viewer,
            seal=seal,
        )
        return view, {"as_of": moments.as_of, "compare": None}
    if walk.cursor is not None:
        raise validation_error(
            ("query", "cursor"), "a compared view is not paged: leave out cursor"
        )
    earlier, later = sorted((moments.as_of or clock.now_iso(), moments.compare))
    if walk.viewer is not None:
        await domain_guard.require_readable(graph, walk.viewer, walk.root)
    found = await lineage_diff.compared(
        graph, walk.root, walk.direction, walk.depth, walk.limit, earlier, later
    )
    view = marked(_later(walk, found), {**found.changes, "truncated": found.truncated})
    return await _redacted(graph, walk.viewer, view, found.places), {
        "as_of": moments.as_of,
        "compare": {"with": moments.compare, "from": earlier, "to": later},
    }


def _later(walk: Walk, found: lineage_diff.Compared) -> LineageView:
    """The neighbourhood at the later moment, as the comparison walked it (each node
    with its place); empty when the root did not exist then."""
    page = found.after
    if page is None:
        return LineageView(found.root, walk.direction, walk.depth, [], [], False)
    return LineageView(page.root, walk.direction, walk.depth, page.nodes, page.edges, page.more)


async def _redacted(
    graph: Graph,
    viewer: Principal | None,
    view: LineageView,
    places: dict[str, dict[str, Any]],
) -> LineageView:
    """The marked view with what `viewer` may not read as stand-ins, their marks kept."""
    teams = await domain_guard.owner_teams(graph, hidden_domains(viewer, view.nodes))
    ends = {i: places[i] for i in foreign_ends(view.nodes, view.edges) if i in places}
    shown = redact(viewer, view.nodes, view.edges, teams, ends)
    return LineageView(
        view.root,
        view.direction,
        view.depth,
        shown.nodes,
        shown.edges,
        view.truncated,
        redacted=shown.count,
    )


def _pair(edge: dict[str, Any]) -> tuple[str, str]:
    return (edge["source"], edge["target"])


def marked(later: LineageView, changes: dict[str, Any]) -> LineageView:
    """The later view with the earlier-only nodes and edges added, each node and edge
    marked `added`, `removed` or None (in both)."""
    added_nodes = {n["id"] for n in changes["added"]["nodes"]}
    added_edges = {_pair(e) for e in changes["added"]["edges"]}
    nodes = [{**n, "change": "added" if n["id"] in added_nodes else None} for n in later.nodes]
    nodes += [{**n, "change": "removed"} for n in changes["removed"]["nodes"]]
    edges = [{**e, "change": "added" if _pair(e) in added_edges else None} for e in later.edges]
    edges += [{**e, "change": "removed"} for e in changes["removed"]["edges"]]
    truncated = later.truncated or bool(changes.get("truncated"))
    return LineageView(later.root, later.direction, later.depth, nodes, edges, truncated)
