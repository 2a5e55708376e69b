"""Stage two of a compiled query: the return form, over the rows `n, distance` that
stage one reached. Every form ends in one aggregated row, so a statement always
answers exactly one record.

- nodes: a page ordered by (distance, id), after the cursor's (distance, id);
- edges: every lineage edge between two reached assets, a page ordered by
  (source, target), after the cursor's pair;
- graph: a page of nodes and the edges among that page's nodes;
- count: how many assets were reached, without materialising them.

The forms are fixed text, so they are named files in `cypher/query/` like every other
statement; this module only picks one and, for a path query, wraps it. A page
fetches one item more than `$limit` (`$fetch`), to learn whether another page
follows; `$after_*` are the cursor's position (`service.domain.query.answer`).
"""

from __future__ import annotations

from functools import cache

from service import cypher

COLUMNS = {
    "nodes": ("nodes",),
    "edges": ("edges",),
    "graph": ("nodes", "edges"),
    "count": ("count",),
    "paths": ("paths",),
}
_FORMS = {
    "count": "query.form_count",
    "nodes": "query.form_nodes",
    "edges": "query.form_edges",
    "graph": "query.form_graph",
}
# A path query's own forms, over `found` (its paths) and `truncated`.
_PATH_FORMS = {"paths": "query.path_form_paths", "count": "query.path_form_count"}
_PATH_REACHED = "query.path_reached"


@cache
def _queries() -> cypher.Queries:
    """The named files, read once, on the first query compiled."""
    return cypher.load()


def _fragment(name: str) -> str:
    return _queries()[name].body


def rows_form(form: str) -> str:
    """The text after stage one of a start or traverse query."""
    return _fragment(_FORMS[form])


def path_form(form: str) -> str:
    """The text after stage one of a path query. Nodes, edges and graph treat the
    assets on the found paths as reached, at their fewest hops from `from`."""
    if form in _PATH_FORMS:
        return _fragment(_PATH_FORMS[form])
    inner = f"{_fragment(_PATH_REACHED)}\n{_fragment(_FORMS[form])}".replace("\n", "\n  ")
    return f"CALL (found) {{\n  {inner}\n}}\nRETURN {', '.join(COLUMNS[form])}, truncated"
