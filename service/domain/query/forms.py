"""Stage two of a compiled query: the return form, over the rows `n, distance` that
stage one reached. Every form ends in one aggregated row, so a statement always
answers exactly one record.

- nodes: a page ordered by (distance, id), after the cursor's (distance, id);
- edges: every lineage edge between two reached assets, a page ordered by
  (source, target), after the cursor's pair;
- graph: a page of nodes and the edges among that page's nodes;
- count: how many assets were reached, without materialising them.

The forms are named files in `cypher/query/` like every other statement; this module
only picks one and, for a path query, wraps it (query.path_form_wrap). A page
fetches one item more than `$limit` (`$fetch`), to learn whether another page
follows; `$after_*` are the cursor's position (`service.domain.query.answer`).
"""

from __future__ import annotations

from service.domain.query.filters import shown
from service.domain.query.fragments import fragment

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


def rows_form(form: str) -> str:
    """The text after stage one of a start or traverse query."""
    return fragment(_FORMS[form]).fill()


def path_form(form: str, hide: bool = False) -> str:
    """The text after stage one of a path query. Nodes, edges and graph treat the
    assets on the found paths as reached, at their fewest hops from `from`; with
    `hide`, those the caller may not read are left out of them, and the `paths` form
    names each as `[<element id>]` (`answer.number_hidden` makes them stand-ins)."""
    if form == "paths":
        return fragment(_PATH_FORMS[form]).fill(shown=shown("y", hide))
    if form in _PATH_FORMS:
        return fragment(_PATH_FORMS[form]).fill()
    return fragment("query.path_form_wrap").fill(
        reached=fragment("query.path_reached").fill(shown=shown("n", hide)),
        form=rows_form(form),
        columns=", ".join(COLUMNS[form]),
    )
