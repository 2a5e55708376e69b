"""The query language compiler: a JSON query (`service.models.query.Query`) to ONE
parameterised Cypher statement, with no I/O.

Its text is named fragments (`cypher/query/`) like every other statement: the walk
(start_rows, traverse_rows, walk_*), the paths (path_*, shortest_*) and the return
forms (form_*, path_form_*). The compiler picks them by the query's shape (a walk per
direction, a form per `return`) and fills their slots (`cypher.Query.fill`) with one
another and with the predicates `filters` builds from the filter tree: fixed text
and parameter names. Every value the client sends is a parameter; the only other
text is an integer depth bound, which the loader checks. That is why the one cast to
`LiteralString` below is safe. Before returning, the compiler checks that every
`$parameter` its text uses was given, the check the loader makes for named files.

    check     the rules between fields, and the configured limits (422 with a loc)
    filters   FILTER -> a predicate over one node variable
    fragments the named files, read once
    reach     stage one: start, traverse (linear-cost walks), shortest paths
    forms     stage two: nodes, edges, graph, count, paths
    answer    cursor positions in, the answer out
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, LiteralString, cast

from service import cypher
from service.domain.query.answer import assemble, position
from service.domain.query.check import Bounds, check, form_of
from service.domain.query.filters import Params
from service.domain.query.forms import COLUMNS, path_form, rows_form
from service.domain.query.reach import path_found, start_rows, traverse_rows
from service.models.query import Query

__all__ = ["Bounds", "Compiled", "assemble", "compile_query"]


@dataclass(frozen=True)
class Compiled:
    text: LiteralString
    params: dict[str, Any]
    form: str
    limit: int
    offset: int
    is_path: bool

    @property
    def columns(self) -> tuple[str, ...]:
        """The one record's columns."""
        return COLUMNS[self.form] + (("truncated",) if self.is_path else ())

    def answer(self, row: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """(the answer's parts, the next page's position or None) from the one record."""
        return assemble(self.form, self.limit, self.offset, self.is_path, row)


def compile_query(
    query: Query, bounds: Bounds, after: Any = None, readable: Sequence[str] | None = None
) -> Compiled:
    """`after` is the decoded cursor's position (None for the first page); `readable`
    the private domains the caller may read (None: all, a global admin). Assets in the
    others are never starts, never match a filter, are left out of the reached rows
    (the walks still pass through them), and are stand-ins on paths."""
    check(query, bounds)
    form = form_of(query)
    params = Params()
    offset = position(form, after, bounds.path_cap, params)
    params.add("limit", query.limit)
    params.add("fetch", query.limit + 1)
    hide = readable is not None
    if readable is not None:
        params.add("readable", sorted(readable))
    if query.path is not None:
        found = path_found(query.path, bounds.path_cap, params, hide)
        text = found + "\n" + path_form(form, hide)
    else:
        assert query.start is not None  # check() guarantees start or path
        if query.traverse is None:
            text = start_rows(query.start, params, hide)
        else:
            text = traverse_rows(query.start, query.traverse, params, hide)
        text += "\n" + rows_form(form)
    missing = cypher.parse("query.compiled", text).params - params.values.keys()
    if missing:
        raise cypher.CypherError(f"compiled query lacks parameters {sorted(missing)}")
    # Safe: named fragments, parameter names and checked integer bounds only (see above).
    statement = cast(LiteralString, text)  # type: ignore[redundant-cast]
    return Compiled(statement, params.values, form, query.limit, offset, query.path is not None)
