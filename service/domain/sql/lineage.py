"""Phase two: which source columns feed each column a statement writes (pure; sqlglot).

The statement's query (`writes.plan`) is qualified by sqlglot's optimizer against the
stored columns of the tables it reads, which expands `SELECT *` and binds unqualified
columns; `dbt.column_trace` then walks its scopes from each output column down to the
tables it reads, in time linear in the statement. What cannot be traced is said in a
warning, never guessed: a `*` over a table with no stored columns, an ambiguous
column, a count that does not line up.

Flows from the target into itself (`SET n = n + 1`) are left out, as the target is
left out of the sources. An output computed from no column at all (`count(*)`, a
literal) has no flow: the table-level edge already says it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.errors import OptimizeError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, build_scope

from service.domain.dbt.column_trace import ScopeTracer, bind_unqualified, named_selects
from service.domain.sql import stored, writes
from service.domain.sql.outputs import OutputTracer, name_outputs, unique_names
from service.domain.sql.statements import Failed, Parsed, message_of

MAX_NAMES_IN_WARNING = 5
_UNNAMED = re.compile(r"_col_\d+", re.IGNORECASE)


@dataclass(frozen=True)
class ColumnFlow:
    """`source_table`.`source_column` feeds `target_column`; `transformation` is the SQL
    computing it, None for a plain copy, and `kind` what it does to the values
    (`service.domain.column_kinds`). Names follow `names`."""

    source_table: str
    source_column: str
    target_column: str
    transformation: str | None
    kind: str = "identity"


@dataclass(frozen=True)
class StatementLineage:
    index: int
    target: str
    sources: tuple[str, ...]
    columns: tuple[ColumnFlow, ...]
    warnings: tuple[str, ...]


def lineage(parsed: Parsed, schema: Mapping[str, Sequence[str]]) -> StatementLineage | Failed:
    """Column lineage of one write. `schema`: stored column names per table, keyed by
    the names `Parsed` reports; a table missing from it costs precision, not the
    statement (a warning). Never raises: what sqlglot cannot resolve is `Failed`."""
    if parsed.target is None:
        return Failed(parsed.index, "the statement writes no table, so it has no lineage")
    try:
        return _Tracing(parsed, schema).run()
    except RecursionError:
        return Failed(parsed.index, "the statement is nested too deeply to analyse")
    except Exception as exc:  # sqlglot raises more than SqlglotError on odd SQL
        return Failed(parsed.index, message_of(exc))


class _Tracing:
    def __init__(self, parsed: Parsed, schema: Mapping[str, Sequence[str]]) -> None:
        self.parsed = parsed
        self.analysis = analysis = parsed.analysis
        self.stored = stored.read(analysis.tables, schema, analysis.dialect)
        # The SQL's spelling first: it is what the statement's author wrote.
        self.spelling = {**self.stored.spelling, **analysis.columns}
        self.tables, self.clashes = stored.by_tracer_key(analysis.tables)
        self.warnings: list[str] = []
        missing = [
            name
            for key, name in analysis.tables.items()
            if key not in self.stored.columns and key != analysis.target
        ]
        if missing:
            self._warn("no stored columns for", missing)

    def run(self) -> StatementLineage:
        plan = self._plan()
        self.warnings += plan.warnings
        flows: tuple[ColumnFlow, ...] = ()
        if plan.query is not None:
            root = self._scopes(plan)
            if root is not None:
                flows = self._flows(root, self._targets(plan, named_selects(root)))
        parsed = self.parsed
        assert parsed.target is not None
        return StatementLineage(
            parsed.index, parsed.target, parsed.sources, flows, tuple(self.warnings)
        )

    def _plan(self) -> writes.Plan:
        """A plan over a copy: qualifying rewrites the tree, and a `Parsed` may be traced
        again (a retry, other stored columns)."""
        return writes.plan(self.analysis.statement.copy())

    def _scopes(self, plan: writes.Plan) -> Scope | None:
        """Qualified with the stored columns; failing that (the SQL reads a column the
        stored list lacks: the table changed since) by the SQL's names alone; failing
        that too (sqlglot will not guess whether a column of a subquery over unknown
        tables is correlated) without binding columns, for the tracer to do what it can."""
        attempts = [(self.stored, True), (stored.NOTHING, True), (stored.NOTHING, False)]
        if not self.stored.columns:
            del attempts[0]
        query = plan.query
        for attempt, (known, bind) in enumerate(attempts, start=1):
            assert query is not None
            try:
                qualified = self._qualify(query, known, bind)
                break
            except OptimizeError as exc:
                if attempt == len(attempts):
                    raise
                fallback = (
                    "stored columns not used" if known is self.stored else "columns not bound"
                )
                self.warnings.append(f"{fallback} ({message_of(exc)})")
                query = self._plan().query  # over a fresh copy: qualify stopped halfway
        if plan.columns is not None or plan.stored_order:
            unique_names(qualified)
        root = build_scope(qualified)
        if root is not None:
            bind_unqualified(root, known.columns_of())
        return root

    def _qualify(self, query: exp.Query, known: stored.Stored, bind: bool) -> exp.Expr:
        if not bind:
            name_outputs(query)
        return qualify(
            query,
            dialect=self.analysis.dialect,
            schema=known.sqlglot_schema(self.analysis.dialect),
            qualify_columns=bind,
            validate_qualify_columns=False,
            identify=False,
        )

    def _targets(self, plan: writes.Plan, outputs: list[str]) -> list[tuple[str, str]]:
        """(output column, target column it lands in), in output order."""
        if plan.columns is not None:
            return self._by_position(outputs, [self._spell(c) for c in plan.columns])
        if plan.stored_order:
            listed = self.stored.columns.get(self.analysis.target or ())
            if listed is not None:
                return self._by_position(outputs, [self._spell(c) for c in listed])
            self.warnings.append("no stored columns for the target: columns matched by name")
        return self._by_name(outputs, plan.renamed)

    def _by_position(self, outputs: list[str], targets: list[str]) -> list[tuple[str, str]]:
        pairs: list[tuple[str, str]] = []
        for position, (output, target) in enumerate(zip(outputs, targets, strict=False)):
            if output == "*":
                where = f"columns from position {position + 1} on are not traced"
                self.warnings.append(f"a * over a table with no stored columns: {where}")
                return pairs
            if output:
                pairs.append((output, target))
        if len(outputs) != len(targets):
            self.warnings.append(
                f"the query yields {len(outputs)} columns for {len(targets)} target columns"
            )
        return pairs

    def _by_name(self, outputs: list[str], renamed: dict[str, str]) -> list[tuple[str, str]]:
        pairs: list[tuple[str, str]] = []
        unnamed: list[str] = []
        for output in dict.fromkeys(outputs):
            target = renamed.get(output, output)
            if output == "*":
                self.warnings.append("a * over a table with no stored columns is not traced")
            elif not output or (_UNNAMED.fullmatch(output) and output not in self.spelling):
                unnamed.append(output or "(no name)")
            else:
                pairs.append((output, self._spell(target)))
        if unnamed:
            self._warn("unnamed expression(s), named by the platform, not traced:", unnamed)
        return pairs

    def _flows(self, root: Scope, pairs: list[tuple[str, str]]) -> tuple[ColumnFlow, ...]:
        outputs = OutputTracer(ScopeTracer(self.analysis.dialect_name))
        flows: dict[ColumnFlow, None] = {}
        unresolved: list[str] = []
        unknown: set[str] = set()
        for output, target in pairs:
            traces = outputs.trace(root, output)
            if any(trace.unresolved for trace in traces):
                unresolved.append(target)
            for trace in traces:
                for parts, column in sorted(trace.leaves):
                    table = self.tables.get(parts)
                    if parts in self.clashes:
                        unknown.add(".".join(parts))
                    elif table is not None and table != self.parsed.target:
                        kind = trace.kinds.get((parts, column), "unknown")
                        flow = ColumnFlow(
                            table, self._spell(column), target, trace.expression, kind
                        )
                        flows[flow] = None
        if unresolved:
            self._warn("column(s) not fully traced:", unresolved)
        if unknown:
            self._warn("not traced: column(s) of tables only case tells apart:", sorted(unknown))
        return tuple(flows)

    def _spell(self, name: str) -> str:
        return self.spelling.get(name, name)

    def _warn(self, what: str, items: Iterable[str]) -> None:
        listed = list(items)
        shown = ", ".join(listed[:MAX_NAMES_IN_WARNING])
        more = len(listed) - MAX_NAMES_IN_WARNING
        self.warnings.append(f"{what} {shown}" + (f" and {more} more" if more > 0 else ""))
