"""Stage one of a compiled query: which assets it reaches.

Start and traverse queries yield rows `n, distance`; a path query yields one row with
`found` (its paths) and `truncated`. The text is the named fragments of
`cypher/query/` (start_rows, traverse_rows, walk_*, path_*, shortest_*); this module
picks them by direction and fills their slots with one another and with the
predicates `filters` builds. Every walk keeps the linear-cost shape of the lineage
reads (see the walk fragments); paths use `ANY SHORTEST` / `ALL SHORTEST`, whose
breadth-first search takes an inlined `through` predicate too.
"""

from __future__ import annotations

from service.domain.query.filters import Params, both, ids_predicate, predicate, shown
from service.domain.query.fragments import fragment
from service.models.query import Direction, Filter, PathQuery, Start, Traverse

_WALKS = {"downstream": "query.walk_downstream", "upstream": "query.walk_upstream"}
_WALKS_THROUGH = {
    "downstream": "query.walk_through_downstream",
    "upstream": "query.walk_through_upstream",
}
_SHORTEST = {"downstream": "query.shortest_downstream", "upstream": "query.shortest_upstream"}
_SHORTEST_THROUGH = {
    "downstream": "query.shortest_through_downstream",
    "upstream": "query.shortest_through_upstream",
}
_UNION = "\n  UNION ALL\n"


def sides(direction: Direction) -> list[str]:
    """`both` is upstream and downstream walked separately, as the lineage reads do:
    never up then down (that would reach siblings, not lineage)."""
    return ["downstream", "upstream"] if direction == "both" else [direction]


def _start(start: Start, var: str, params: Params, hide: bool) -> str:
    if start.ids is not None:
        return both(ids_predicate(var, start.ids, params), shown(var, hide))
    return both(predicate(start.where, var, "start", params), shown(var, hide))


def start_rows(start: Start, params: Params, hide: bool = False) -> str:
    """`hide`: assets in private domains the caller has no role in are left out."""
    return fragment("query.start_rows").fill(start=_start(start, "n", params, hide))


def traverse_rows(start: Start, walk: Traverse, params: Params, hide: bool = False) -> str:
    """Per start asset, each reached asset at its fewest hops (the start itself only
    when another start reaches it, or at 0 with `min_depth` 0); then the fewest over
    all starts, bounded by the depths and filtered by `where`. `hide`: the walks pass
    through assets the caller may not read, which are left out of the rows."""
    through = _through(walk.through, walk.max_depth, params, hide)
    walks = [_walk(side, walk.max_depth, through) for side in sides(walk.direction)]
    if walk.min_depth == 0:
        walks.append(fragment("query.walk_start").fill())
    params.add("min_depth", walk.min_depth)
    return fragment("query.traverse_rows").fill(
        start=_start(start, "s", params, hide),
        walks=_UNION.join(walks),
        where=both(predicate(walk.where, "n", "where", params), shown("n", hide)),
    )


def _through(through: Filter | None, max_depth: int, params: Params, hide: bool) -> str | None:
    """The predicate over intermediate assets; none with one hop, which has none. An
    asset the caller may not read never passes one."""
    if through is None or max_depth <= 1:
        return None
    return both(predicate(through, "hop_b", "through", params), shown("hop_b", hide))


def _walk(side: str, max_depth: int, through: str | None) -> str:
    if through is None:
        return fragment(_WALKS[side]).fill({"max_depth": max_depth})
    return fragment(_WALKS_THROUGH[side]).fill({"hops": max_depth - 1}, through=through)


def _shortest(side: str, max_depth: int, through: str | None) -> str:
    if through is None:
        return fragment(_SHORTEST[side]).fill({"max_depth": max_depth})
    return fragment(_SHORTEST_THROUGH[side]).fill({"hops": max_depth - 1}, through=through)


def path_found(path: PathQuery, cap: int, params: Params, hide: bool = False) -> str:
    """One row: `found`, the shortest paths (at most `cap` of them), and `truncated`.
    `hide`: an end the caller may not read finds no path, as an unknown id."""
    through = _through(path.through, path.max_depth, params, hide)
    ends = both(shown("a", hide), shown("b", hide))
    kind = "ALL SHORTEST" if path.all_shortest else "ANY SHORTEST"
    params.add("path_fetch", cap + 1)
    params.add("path_from", path.from_)
    params.add("path_to", path.to)
    params.add("path_cap", cap)
    patterns = {side: _shortest(side, path.max_depth, through) for side in sides(path.direction)}
    if len(patterns) == 1:
        (pattern,) = patterns.values()
        return fragment("query.path_one").fill(kind=kind, pattern=pattern, ends=ends)
    first_only = "" if path.all_shortest else fragment("query.path_first_only").fill()
    return fragment("query.path_both").fill(
        kind=kind,
        downstream=patterns["downstream"],
        upstream=patterns["upstream"],
        first_only=first_only,
        ends=ends,
    )
