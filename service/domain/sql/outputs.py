"""The columns a statement outputs: named, kept apart, and traced union branch by
branch (pure; sqlglot scopes, `dbt.column_trace` below)."""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from service.domain.dbt.column_trace import ScopeTracer, Trace, named_selects


class OutputTracer:
    """Traces the statement's output columns. A column of the statement's own UNION is
    traced branch by branch: the tracer merges branches into one trace with no
    expression, and each branch may compute the column differently (`SUM(x)` in one,
    `x` in the other). Output names are memoised per scope, so a long UNION costs its
    length, not its length squared."""

    def __init__(self, tracer: ScopeTracer) -> None:
        self.tracer = tracer
        self.names: dict[int, list[str]] = {}

    def trace(self, scope: Scope, name: str) -> list[Trace]:
        if not isinstance(scope.expression, exp.SetOperation):
            return [self.tracer.column(scope, name)]
        here = self._names(scope)
        if name not in here:
            return [self.tracer.column(scope, name)]
        position = here.index(name)
        traces: list[Trace] = []
        for branch in scope.set_operation_scopes:
            branch_names = self._names(branch)
            if position < len(branch_names) and branch_names[position]:
                traces += self.trace(branch, branch_names[position])
            else:
                traces.append(Trace(unresolved=True))
        return traces

    def _names(self, scope: Scope) -> list[str]:
        """A UNION's names are its first branch's; sqlglot finds them by walking down
        the whole chain of UNIONs each time."""
        found = self.names.get(id(scope))
        if found is None:
            branches = scope.set_operation_scopes
            if isinstance(scope.expression, exp.SetOperation) and branches:
                found = self._names(branches[0])
            else:
                found = named_selects(scope)
            self.names[id(scope)] = found
        return found


def _first_select(query: exp.Expr) -> exp.Select | None:
    """Where a query's output names come from: a UNION takes its first branch's."""
    while isinstance(query, exp.SetOperation):
        query = query.this
    return query if isinstance(query, exp.Select) else None


def name_outputs(query: exp.Expr) -> None:
    """Name the unnamed output columns as sqlglot's qualify would, when it does not run
    that far: an unnamed column has no place in `named_selects`, and the columns that
    land by position after it would shift."""
    select = _first_select(query)
    for position, projection in enumerate(select.expressions if select else []):
        if not projection.alias_or_name:
            projection.replace(exp.alias_(projection.copy(), f"_col_{position}"))


def unique_names(query: exp.Expr) -> None:
    """Output columns that land by position may share a name (`SELECT a.id, b.id`); the
    tracer finds a column by name, so the later ones get names of their own."""
    select = _first_select(query)
    seen: set[str] = set()
    for position, projection in enumerate(select.expressions if select else []):
        name = projection.alias_or_name
        if name in seen and isinstance(projection, exp.Alias):
            projection.set("alias", exp.to_identifier(f"__position_{position}"))
        seen.add(name)
