"""Where each output column of a qualified query comes from: a walk over sqlglot
scopes (CTEs, derived tables, set operations, scalar subqueries) down to the tables
it reads. Pure; memoised per (scope, column), so linear in the size of the query.

We walk the scopes ourselves rather than read `sqlglot.lineage` trees back: those
name their leaves by SQL text and, when a column is missing from a scope, fall back
to the whole SELECT, so reading them means re-parsing names and guessing which
leaves are real. Here what cannot be traced (an ambiguous unqualified column, a
`*` over several sources) is marked unresolved instead of guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, find_all_in_scope

from service.domain import column_kinds

MAX_EXPRESSION_CHARS = 4_096
# (table parts lower-cased, column name): a column of a table the query reads.
Leaf = tuple[tuple[str, ...], str]
# The full column list of a table (lower-cased), or None when it is not known.
ColumnsOf = Callable[[tuple[str, ...]], frozenset[str] | None]


@dataclass
class Trace:
    """Where one column of one scope comes from; `expression` is the SQL computing it
    (the nearest one that is more than a column reference), if any; `kinds`, per leaf,
    what the way from it does to its values (`column_kinds`), composed over every scope
    it passes (a `count` in a CTE stays an aggregation when the outer query wraps it in
    `coalesce`)."""

    leaves: set[Leaf] = field(default_factory=set)
    unresolved: bool = False
    expression: str | None = None
    kinds: dict[Leaf, str] = field(default_factory=dict)

    def add(self, other: Trace, step: str = "identity") -> None:
        """Join `other`'s leaves, reached through a use of kind `step`; a leaf reached
        two ways keeps the more revealing."""
        self.leaves |= other.leaves
        self.unresolved = self.unresolved or other.unresolved
        for leaf, kind in other.kinds.items():
            through = column_kinds.compose(step, kind)
            known = self.kinds.get(leaf)
            self.kinds[leaf] = through if known is None else column_kinds.revealing(known, through)


def named_selects(scope: Scope) -> list[str]:
    expression = scope.expression
    return list(expression.named_selects) if isinstance(expression, exp.Query) else []


def table_parts(table: exp.Table) -> tuple[str, ...]:
    return tuple(p.lower() for p in (table.catalog, table.db, table.name) if p)


def bind_unqualified(root: Scope, columns_of: ColumnsOf) -> None:
    """Give an unqualified column the one source that can hold it. sqlglot leaves a
    column unqualified when a source's columns are unknown; over one source it is that
    one, over several it is the only source not known to lack it."""
    for scope in root.traverse():
        sources = scope.selected_sources
        if not sources:
            continue
        for column in scope.unqualified_columns:
            candidates = [
                alias
                for alias, (_, source) in sources.items()
                if len(sources) == 1 or _may_hold(source, column.name, columns_of)
            ]
            if len(candidates) == 1:
                column.set("table", exp.to_identifier(candidates[0]))


def _may_hold(source: exp.Table | Scope, name: str, columns_of: ColumnsOf) -> bool:
    if isinstance(source, exp.Table):
        known = columns_of(table_parts(source))
        return known is None or name.lower() in known
    names = named_selects(source)
    return name in names or "*" in names or "" in names or not names


class ScopeTracer:
    def __init__(self, dialect: str | None) -> None:
        self.dialect = dialect
        self.memo: dict[tuple[int, str], Trace] = {}
        self.active: set[tuple[int, str]] = set()
        self.projections: dict[int, dict[str, exp.Expr]] = {}

    def column(self, scope: Scope, name: str) -> Trace:
        key = (id(scope), name)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        if key in self.active:  # a recursive CTE: the cycle adds nothing new
            return Trace()
        self.active.add(key)
        try:
            trace = self._trace(scope, name)
        finally:
            self.active.discard(key)
        self.memo[key] = trace
        return trace

    def _trace(self, scope: Scope, name: str) -> Trace:
        expression = scope.expression
        if isinstance(expression, exp.SetOperation):
            return self._set_operation(scope, name)
        if not isinstance(expression, exp.Select):
            return Trace(unresolved=True)
        projection = self._projections(scope, expression).get(name)
        if projection is not None:
            return self._projection(scope, projection)
        candidates = _star_sources(scope, expression)
        if len(candidates) != 1:
            return Trace(unresolved=True)
        return self._source(scope, candidates[0], name)

    def _projections(self, scope: Scope, select: exp.Select) -> dict[str, exp.Expr]:
        found = self.projections.get(id(scope))
        if found is None:
            found = {}
            for projection in select.expressions:
                if projection.alias_or_name and not _is_star(projection):
                    found.setdefault(projection.alias_or_name, projection)
            self.projections[id(scope)] = found
        return found

    def _set_operation(self, scope: Scope, name: str) -> Trace:
        """Branches of a UNION (or INTERSECT, EXCEPT) line up by position."""
        names = named_selects(scope)
        if name not in names:
            return Trace(unresolved=True)
        index = names.index(name)
        trace = Trace()
        for branch in scope.set_operation_scopes:
            branch_names = named_selects(branch)
            if index >= len(branch_names) or not branch_names[index]:
                trace.unresolved = True
                continue
            trace.add(self.column(branch, branch_names[index]))
        return trace

    def _projection(self, scope: Scope, projection: exp.Expr) -> Trace:
        inner = projection.this if isinstance(projection, exp.Alias) else projection
        children = [
            (self._source(scope, column.table, column.name), column_kinds.of_use(inner, column))
            for column in find_all_in_scope(inner, exp.Column)
            if not isinstance(column.this, exp.Star)
        ]
        subscopes = {id(s.expression): s for s in scope.subquery_scopes}
        for query in find_all_in_scope(inner, *exp.UNWRAPPED_QUERIES):
            subscope = subscopes.get(id(query))
            if subscope is None:
                children.append((Trace(unresolved=True), "unknown"))
                continue
            step = column_kinds.of_use(inner, query)
            children += [(self.column(subscope, n), step) for n in query.named_selects if n]
        trace = Trace()
        for child, step in children:
            trace.add(child, step)
        if not isinstance(inner, exp.Column):
            sql = inner.sql(dialect=self.dialect, comments=False)
            trace.expression = sql[:MAX_EXPRESSION_CHARS]
        elif len(children) == 1:
            trace.expression = children[0][0].expression
        return trace

    def _source(self, scope: Scope, alias: str, name: str) -> Trace:
        """Column `name` of source `alias`, looked up in this scope and then in the
        enclosing ones (a correlated subquery reads its outer query's sources)."""
        if not alias:
            return Trace(unresolved=True)
        current: Scope | None = scope
        while current is not None:
            source = current.sources.get(alias)
            if isinstance(source, Scope):
                return self.column(source, name)
            if isinstance(source, exp.Table):
                leaf = (table_parts(source), name)
                return Trace(leaves={leaf}, kinds={leaf: "identity"})
            if source is not None:
                return Trace(unresolved=True)
            current = current.parent
        return Trace(unresolved=True)


def _is_star(projection: exp.Expr) -> bool:
    return isinstance(projection, exp.Star) or (
        isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star)
    )


def _star_sources(scope: Scope, select: exp.Select) -> list[str]:
    """The sources an unexpanded `*` or `t.*` of this SELECT reads."""
    found: list[str] = []
    for projection in select.expressions:
        if isinstance(projection, exp.Star):
            found += list(scope.selected_sources)
        elif isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
            found.append(projection.table)
    return list(dict.fromkeys(found))
