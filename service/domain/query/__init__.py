"""The query language compiler: a JSON query (`service.models.query.Query`) to ONE
parameterised Cypher statement, with no I/O.

Its return forms are named files (`cypher/query/form_*.cypher`, `path_*.cypher`).
Stage one (the walk) is the one Cypher written here, in `reach` and `filters`: its
shape follows the query (a walk per direction, an arrow per side, a predicate built
from the filter tree), which a named file could hold only if the loader substituted
text, and the loader's rule is that nothing but a checked integer is ever formatted
into a statement. Every value the client sends is a parameter; the only other text
is an integer depth bound, checked in `reach.bound`. That is why the one cast to
`LiteralString` below is safe. Before returning, the compiler checks that every
`$parameter` its text uses was given, the check the loader makes for named files.

    check     the rules between fields, and the configured limits (422 with a loc)
    filters   FILTER -> a predicate over one node variable
    reach     stage one: start, traverse (linear-cost walks), shortest paths
    forms     stage two: nodes, edges, graph, count, paths (named files)
    answer    cursor positions in, the answer out
"""

from __future__ import annotations

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


def compile_query(query: Query, bounds: Bounds, after: Any = None) -> Compiled:
    """`after` is the decoded cursor's position (None for the first page)."""
    check(query, bounds)
    form = form_of(query)
    params = Params()
    offset = position(form, after, bounds.path_cap, params)
    params.add("limit", query.limit)
    params.add("fetch", query.limit + 1)
    if query.path is not None:
        text = path_found(query.path, bounds.path_cap, params) + "\n" + path_form(form)
    else:
        assert query.start is not None  # check() guarantees start or path
        if query.traverse is None:
            text = start_rows(query.start, params)
        else:
            text = traverse_rows(query.start, query.traverse, params)
        text += "\n" + rows_form(form)
    missing = cypher.parse("query.compiled", text).params - params.values.keys()
    if missing:
        raise cypher.CypherError(f"compiled query lacks parameters {sorted(missing)}")
    # Safe: fixed fragments, parameter names and checked integer bounds only (see above).
    statement = cast(LiteralString, text)  # type: ignore[redundant-cast]
    return Compiled(statement, params.values, form, query.limit, offset, query.path is not None)
