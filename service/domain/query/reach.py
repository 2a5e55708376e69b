"""Stage one of a compiled query: which assets it reaches.

Start and traverse queries yield rows `n, distance`; a path query yields one row with
`found` (its paths) and `truncated`. Every walk keeps the linear-cost shape of the
lineage reads: a variable-length pattern grouped by its end node with
`min(length(p))`, which Neo4j runs as `VarLengthExpand(Pruning,BFS)`, visiting each
node once instead of enumerating paths. `through` is a predicate inlined into a
quantified path pattern over the intermediate assets, which the planner folds into
the same pruning expand; one more hop then reaches the returned assets, which need
not pass `through` themselves. Paths use `ANY SHORTEST` / `ALL SHORTEST`, whose
breadth-first search takes the inlined predicate too, never a fallback that
enumerates paths.
"""

from __future__ import annotations

from service.cypher import MAX_BOUND
from service.domain.query.filters import Params, predicate
from service.models.query import Direction, PathQuery, Start, Traverse

_ARROWS = {"downstream": ("-", "->"), "upstream": ("<-", "-")}


def bound(value: int) -> str:
    """The only text formatted into a compiled statement that is not a fixed fragment:
    an integer bound, which Cypher cannot take as a parameter. Checked here again."""
    if type(value) is not int or not 0 <= value <= MAX_BOUND:
        raise ValueError(f"bound {value!r} is not an integer in range")
    return str(value)


def sides(direction: Direction) -> list[str]:
    """`both` is upstream and downstream walked separately, as the lineage reads do:
    never up then down (that would reach siblings, not lineage)."""
    return ["downstream", "upstream"] if direction == "both" else [direction]


def start_match(start: Start, var: str, params: Params) -> str:
    if start.ids is not None:
        return f"MATCH ({var}:Asset)\nWHERE {var}.id IN {params.add('start_ids', start.ids)}"
    return f"MATCH ({var}:Asset)\nWHERE {predicate(start.where, var, 'start', params)}"


def start_rows(start: Start, params: Params) -> str:
    return start_match(start, "n", params) + "\nWITH n, 0 AS distance"


def traverse_rows(start: Start, walk: Traverse, params: Params) -> str:
    """Per start asset, each reached asset at its fewest hops (the start itself only
    when another start reaches it, or at 0 with `min_depth` 0); then the fewest over
    all starts, bounded by the depths and filtered by `where`."""
    through = None
    if walk.through is not None and walk.max_depth > 1:
        through = predicate(walk.through, "hop_b", "through", params)
    branches = [_walk(side, walk.max_depth, through) for side in sides(walk.direction)]
    if walk.min_depth == 0:
        branches.append("  RETURN s AS n, 0 AS d")
    where = predicate(walk.where, "n", "where", params)
    return "\n".join(
        [
            start_match(start, "s", params),
            "CALL (s) {",
            "\n  UNION ALL\n".join(branches),
            "}",
            "WITH n, min(d) AS distance",
            f"WHERE distance >= {params.add('min_depth', walk.min_depth)} AND {where}",
        ]
    )


def _walk(side: str, max_depth: int, through: str | None) -> str:
    left, right = _ARROWS[side]
    if through is None:
        return "\n".join(
            [
                f"  MATCH p = (s){left}[:LINEAGE*1..{bound(max_depth)}]{right}(n)",
                "  WHERE n <> s",
                "  RETURN n, min(length(p)) AS d",
            ]
        )
    hop = f"((hop_a){left}[:LINEAGE]{right}(hop_b) WHERE {through}){{0,{bound(max_depth - 1)}}}"
    return "\n".join(
        [
            f"  MATCH p = (s) {hop} (m)",
            "  WITH m, min(length(p)) AS dm",
            f"  MATCH (m){left}[:LINEAGE]{right}(n)",
            "  WHERE n <> s",
            "  RETURN n, min(dm + 1) AS d",
        ]
    )


def path_found(path: PathQuery, cap: int, params: Params) -> str:
    """One row: `found`, the shortest paths (at most `cap` of them), and `truncated`."""
    through = None
    if path.through is not None and path.max_depth > 1:
        through = predicate(path.through, "hop_b", "through", params)
    kind = "ALL SHORTEST" if path.all_shortest else "ANY SHORTEST"
    fetch = params.add("path_fetch", cap + 1)
    patterns = [_shortest(side, path.max_depth, through) for side in sides(path.direction)]
    lines = [
        f"MATCH (a:Asset {{id: {params.add('path_from', path.from_)}}})",
        f"MATCH (b:Asset {{id: {params.add('path_to', path.to)}}})",
    ]
    if len(patterns) == 1:
        lines += [f"MATCH p = {kind} {patterns[0]}", f"WITH p LIMIT {fetch}"]
        lines.append("WITH collect(p) AS found")
    else:
        union = "\n  UNION ALL\n".join(
            f"  MATCH p = {kind} {pattern}\n  RETURN p LIMIT {fetch}" for pattern in patterns
        )
        lines += ["CALL (a, b) {", union, "}", "WITH collect(p) AS found", *_shortest_only()]
        if not path.all_shortest:
            lines.append("WITH found[..1] AS found")
    most = params.add("path_cap", cap)
    lines.append(f"WITH found[..{most}] AS found, size(found) > {most} AS truncated")
    return "\n".join(lines)


def _shortest(side: str, max_depth: int, through: str | None) -> str:
    left, right = _ARROWS[side]
    if through is None:
        return f"(a){left}[:LINEAGE]{right}{{1,{bound(max_depth)}}}(b)"
    hop = f"((hop_a){left}[:LINEAGE]{right}(hop_b) WHERE {through}){{0,{bound(max_depth - 1)}}}"
    return f"(a) {hop} (m){left}[:LINEAGE]{right}(b)"


def _shortest_only() -> list[str]:
    """With both directions searched, keep the paths of the shorter one."""
    return [
        "WITH found, reduce(best = -1, x IN found |",
        "  CASE WHEN best < 0 OR length(x) < best THEN length(x) ELSE best END) AS best",
        "WITH [x IN found WHERE length(x) = best] AS found",
    ]
