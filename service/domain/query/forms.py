"""Stage two of a compiled query: the return form, over the rows `n, distance` that
stage one reached. Every form ends in one aggregated row, so a statement always
answers exactly one record.

- nodes: a page ordered by (distance, id), after the cursor's (distance, id);
- edges: every lineage edge between two reached assets, a page ordered by
  (source, target), after the cursor's pair;
- graph: a page of nodes and the edges among that page's nodes;
- count: how many assets were reached, without materialising them.

A page fetches one item more than `$limit` (`$fetch`), to learn whether another page
follows; `$after_*` are the cursor's position (`service.domain.query.answer`). List
membership (`b IN ns`) costs no scan: Neo4j checks a list it reuses as a hash set.
"""

from __future__ import annotations

NODE = "n {.id, .name, .type, .platform, .tags, .placeholder, distance: distance}"
EDGE = "{source: a.id, target: b.id, transformation: r.transformation}"
COLUMNS = {
    "nodes": ("nodes",),
    "edges": ("edges",),
    "graph": ("nodes", "edges"),
    "count": ("count",),
    "paths": ("paths",),
}

_NODE_PAGE = """WITH n, distance
WHERE distance > $after_distance OR (distance = $after_distance AND n.id > $after_id)
WITH n, distance ORDER BY distance, n.id LIMIT $fetch"""

_FORMS = {
    "count": "RETURN count(n) AS count",
    "nodes": f"{_NODE_PAGE}\nRETURN collect({NODE}) AS nodes",
    "edges": f"""WITH collect(n) AS ns
UNWIND ns AS a
MATCH (a)-[r:LINEAGE]->(b)
WHERE b IN ns
  AND (a.id > $after_source OR (a.id = $after_source AND b.id > $after_target))
WITH a, r, b ORDER BY a.id, b.id LIMIT $fetch
RETURN collect({EDGE}) AS edges""",
    "graph": f"""{_NODE_PAGE}
WITH collect(n) AS ns, collect({NODE}) AS nodes
WITH nodes, ns[..$limit] AS page
CALL (page) {{
  UNWIND page AS a
  MATCH (a)-[r:LINEAGE]->(b)
  WHERE b IN page
  WITH a, r, b ORDER BY a.id, b.id
  RETURN collect({EDGE}) AS edges
}}
RETURN nodes, edges""",
}

# A path query's own forms, over `found` (its paths) and `truncated`.
_PATH_FORMS = {
    "paths": "RETURN [x IN found[$after_offset..($after_offset + $fetch)]"
    " | [y IN nodes(x) | y.id]] AS paths, truncated",
    "count": "RETURN size(found) AS count, truncated",
}
_ON_PATHS = """UNWIND found AS x
UNWIND range(0, length(x)) AS i
WITH nodes(x)[i] AS n, i AS distance
WITH n, min(distance) AS distance"""


def rows_form(form: str) -> str:
    """The text after stage one of a start or traverse query."""
    return _FORMS[form]


def path_form(form: str) -> str:
    """The text after stage one of a path query. Nodes, edges and graph treat the
    assets on the found paths as reached, at their fewest hops from `from`."""
    if form in _PATH_FORMS:
        return _PATH_FORMS[form]
    inner = f"{_ON_PATHS}\n{_FORMS[form]}".replace("\n", "\n  ")
    return f"CALL (found) {{\n  {inner}\n}}\nRETURN {', '.join(COLUMNS[form])}, truncated"
