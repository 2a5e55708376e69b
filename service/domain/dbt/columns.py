"""Column-level lineage of one dbt node from its compiled SQL (pure; sqlglot, no I/O).

The SQL is parsed and qualified with sqlglot (`optimizer.qualify`: stars expanded
where the parents' full column lists are known, columns bound to their tables);
`column_trace` then follows each output column down to the tables it reads, and
those tables are matched to the node's parents by relation name. What cannot be
traced (a `SELECT *` over a relation whose columns are unknown, an ambiguous
column, a table that is not a parent) is reported, never guessed.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import OptimizeError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, build_scope
from sqlglot.schema import MappingSchema

from service.domain.dbt.column_trace import (
    ColumnsOf,
    ScopeTracer,
    bind_unqualified,
    named_selects,
)
from service.domain.dbt.contents import DbtColumnEdge

MAX_SQL_CHARS = 1_000_000
CACHED_NODES = 2_048
MAX_NAMES_IN_MESSAGE = 5
# dbt adapter type -> sqlglot dialect; an adapter not listed is read as generic SQL.
DIALECTS = {
    "athena": "athena",
    "bigquery": "bigquery",
    "clickhouse": "clickhouse",
    "databricks": "databricks",
    "doris": "doris",
    "dremio": "dremio",
    "duckdb": "duckdb",
    "exasol": "exasol",
    "fabric": "fabric",
    "glue": "spark",
    "hive": "hive",
    "impala": "hive",
    "materialize": "materialize",
    "mysql": "mysql",
    "oracle": "oracle",
    "postgres": "postgres",
    "presto": "presto",
    "redshift": "redshift",
    "risingwave": "risingwave",
    "singlestore": "singlestore",
    "snowflake": "snowflake",
    "spark": "spark",
    "sqlite": "sqlite",
    "sqlserver": "tsql",
    "starrocks": "starrocks",
    "synapse": "tsql",
    "teradata": "teradata",
    "trino": "trino",
}


def dialect_for(adapter: str | None) -> str | None:
    return DIALECTS.get((adapter or "").lower())


@dataclass(frozen=True)
class Relation:
    """A parent as compiled SQL names it: `parts` are (database, schema, identifier),
    lower-cased. `columns` is its full column list when known (derived from its own
    SQL), else empty: documented columns are often a subset, and expanding a `*` with
    a subset would lose the rest. `names` are every spelling known (documented too)."""

    uid: str
    parts: tuple[str, ...]
    columns: tuple[str, ...] = ()
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class NodeColumns:
    """What one node's SQL says. `columns` are its output columns in order (None when a
    star could not be expanded, so the list would be incomplete); `problem` says why
    nothing at all could be derived."""

    columns: tuple[str, ...] | None = None
    edges: tuple[DbtColumnEdge, ...] = ()
    unresolved: tuple[str, ...] = ()
    unknown_relations: tuple[str, ...] = ()
    problem: str | None = None


class _Skip(Exception):
    """The node's SQL cannot be analysed; the message says why."""


def relation_parts(relation_name: str | None, fallback: Sequence[str | None]) -> tuple[str, ...]:
    """(database, schema, identifier) lower-cased, from dbt's `relation_name` (quoted as
    the adapter quotes: "a"."b", `a`.`b`, [a].[b]) else from the node's own fields.
    A plain scan, not a sqlglot parse: it runs for every asset of the manifest."""
    parts = _split_name(relation_name) if relation_name else []
    if not parts:
        parts = [p for p in fallback if p]
    return tuple(p.lower() for p in parts)


_CLOSING = {'"': '"', "`": "`", "[": "]"}


def _split_name(name: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    closing: str | None = None
    for char in name.strip():
        if closing is not None:
            if char == closing:
                closing = None
            else:
                current.append(char)
        elif char in _CLOSING:
            closing = _CLOSING[char]
        elif char == ".":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p for p in parts if p] if closing is None else []


def node_columns(
    uid: str,
    sql: str,
    dialect: str | None,
    parents: Sequence[Relation],
    known: Sequence[str] = (),
) -> NodeColumns:
    """Column edges parent column -> this node's column; never raises on bad SQL.
    `known` are the node's documented columns, for their spelling.

    Results are remembered for the last CACHED_NODES distinct inputs: analysing SQL
    costs milliseconds per node, and re-uploading a project's manifest, mostly
    unchanged, is the common case."""
    return _node_columns(uid, sql, dialect, tuple(parents), tuple(known))


@functools.lru_cache(maxsize=CACHED_NODES)
def _node_columns(
    uid: str,
    sql: str,
    dialect: str | None,
    parents: tuple[Relation, ...],
    known: tuple[str, ...],
) -> NodeColumns:
    try:
        if len(sql) > MAX_SQL_CHARS:
            raise _Skip(f"its SQL is longer than {MAX_SQL_CHARS} characters")
        lowered = sql.lower()
        if not any(p.parts and p.parts[-1] in lowered for p in parents):
            raise _Skip("its SQL names none of its parents' relations")
        return _Node(uid, dialect, parents, known).read(sql)
    except _Skip as skip:
        return NodeColumns(problem=str(skip))
    except RecursionError:
        return NodeColumns(problem="its SQL is nested too deeply to analyse")
    except Exception as exc:
        # sqlglot raises more than SqlglotError on unusual SQL; such a node is skipped,
        # never a failure of the upload.
        text = str(exc).strip()
        reason = text.splitlines()[0][:200] if text else type(exc).__name__
        return NodeColumns(problem=f"its SQL could not be analysed ({reason})")


class _Node:
    """One node's SQL against its parents."""

    def __init__(
        self, uid: str, dialect: str | None, parents: Sequence[Relation], known: Sequence[str]
    ) -> None:
        self.uid = uid
        self.dialect = dialect
        self.parents = parents
        self.index = _suffix_index(parents)
        self.full = {p.uid: frozenset(c.lower() for c in p.columns) for p in parents if p.columns}
        self.spelling = {p.uid: _spelling((*p.columns, *p.names)) for p in parents}
        self.own = _spelling(known)

    def read(self, sql: str) -> NodeColumns:
        root = self._scopes(sql)
        names = list(dict.fromkeys(named_selects(root)))
        star = "*" in names or "" in names
        outputs = [n for n in names if n and n != "*"]
        tracer = ScopeTracer(self.dialect)
        edges: dict[tuple[str, str, str], DbtColumnEdge] = {}
        unresolved = ["*"] if star else []
        unknown: set[str] = set()
        for name in outputs:
            target = self.own.get(name.lower(), name)
            if not _printable(name):
                unresolved.append(target)
                continue
            trace = tracer.column(root, name)
            if trace.unresolved:  # what was traced is right, only incomplete: kept
                unresolved.append(target)
            for parts, column in sorted(trace.leaves):
                source = self._parent(parts)
                if source is None or not _printable(column):
                    unknown.add(".".join(parts))
                    continue
                spelled = self.spelling[source].get(column.lower(), column)
                kind = trace.kinds.get((parts, column), "unknown")
                edge = DbtColumnEdge(source, spelled, self.uid, target, trace.expression, kind)
                edges[(source, spelled, target)] = edge
        return NodeColumns(
            columns=None if star else tuple(self.own.get(n.lower(), n) for n in outputs),
            edges=tuple(edges.values()),
            unresolved=tuple(unresolved),
            unknown_relations=tuple(sorted(unknown)),
        )

    def _parent(self, parts: tuple[str, ...]) -> str | None:
        uids = self.index.get(parts, set())
        return next(iter(uids)) if len(uids) == 1 else None

    def _full_columns(self, parts: tuple[str, ...]) -> frozenset[str] | None:
        uid = self._parent(parts)
        return self.full.get(uid) if uid else None

    def _scopes(self, sql: str) -> Scope:
        expression = sqlglot.parse_one(sql, dialect=self.dialect)
        if not isinstance(expression, exp.Query):
            raise _Skip("its SQL is not a query")
        columns_of: ColumnsOf = self._full_columns
        try:
            qualified = _qualify(
                expression.copy(), self.dialect, _schema(self.parents, self.dialect)
            )
        except OptimizeError:
            # The SQL reads a column a parent's derived list lacks (nodes compiled at
            # different times): qualify without lists and trace names through `*`.
            qualified = _qualify(expression, self.dialect, MappingSchema(dialect=self.dialect))
            columns_of = _nothing_known
        root = build_scope(qualified)
        if root is None:
            raise _Skip("its SQL is not a query")
        bind_unqualified(root, columns_of)
        return root


def _nothing_known(parts: tuple[str, ...]) -> frozenset[str] | None:
    return None


def _qualify(expression: exp.Expr, dialect: str | None, schema: MappingSchema) -> exp.Expr:
    return qualify(
        expression, dialect=dialect, schema=schema, validate_qualify_columns=False, identify=False
    )


def _schema(parents: Sequence[Relation], dialect: str | None) -> MappingSchema:
    """The full column lists of the parents, at the one nesting depth most of them share
    (sqlglot's schema needs every table at the same depth)."""
    depths = [len(p.parts) for p in parents if p.columns and p.parts]
    if not depths:
        return MappingSchema(dialect=dialect)
    depth = max(set(depths), key=depths.count)
    mapping: dict[str, object] = {}
    for parent in parents:
        if not parent.columns or len(parent.parts) != depth:
            continue
        level = mapping
        for part in parent.parts[:-1]:
            nested = level.setdefault(part, {})
            assert isinstance(nested, dict)
            level = nested
        level[parent.parts[-1]] = dict.fromkeys(parent.columns, "UNKNOWN")
    return MappingSchema(mapping, dialect=dialect)


def _suffix_index(parents: Iterable[Relation]) -> dict[tuple[str, ...], set[str]]:
    """Every trailing run of each parent's parts -> the parents it names, so that SQL
    naming a table as `db.schema.t`, `schema.t` or `t` finds it when unambiguous."""
    index: dict[tuple[str, ...], set[str]] = {}
    for parent in parents:
        for start in range(len(parent.parts)):
            index.setdefault(parent.parts[start:], set()).add(parent.uid)
    return index


def _spelling(columns: Iterable[str]) -> dict[str, str]:
    """Lower-cased name -> the spelling the manifest uses (dialects fold unquoted case)."""
    spelled: dict[str, str] = {}
    for column in columns:
        spelled.setdefault(column.lower(), column)
    return spelled


def _printable(name: str) -> bool:
    return 0 < len(name) <= 512 and not any(unicodedata.category(c) == "Cc" for c in name)


def describe(uid: str, result: NodeColumns) -> str | None:
    """One warning for a node whose lineage is incomplete, or None."""
    if result.problem:
        return f"{uid}: column lineage skipped: {result.problem}"
    parts = []
    if result.unresolved:
        names = [n for n in result.unresolved if n != "*"]
        if names:
            shown = ", ".join(names[:MAX_NAMES_IN_MESSAGE])
            more = (
                f" and {len(names) - MAX_NAMES_IN_MESSAGE} more"
                if len(names) > MAX_NAMES_IN_MESSAGE
                else ""
            )
            parts.append(f"column(s) {shown}{more} not fully traced")
        if "*" in result.unresolved:
            parts.append("a SELECT * over a relation whose columns are unknown")
    if result.unknown_relations:
        shown = ", ".join(result.unknown_relations[:MAX_NAMES_IN_MESSAGE])
        parts.append(f"relation(s) {shown} are not among its parents")
    return f"{uid}: column lineage incomplete: {'; '.join(parts)}" if parts else None
