"""SQL text -> statements -> what each one writes and reads (pure; sqlglot, no I/O).

`parse` is phase one: per statement, the table written (`target`, None for a read or
for DDL that moves no data) and the tables read (`sources`), named as `names`
describes, defaults filled in. Each statement stands alone: one that does not parse
becomes `Failed` with its index and the rest go on. Phase two, `lineage.lineage`,
takes a `Parsed` on to column level once the service knows the tables' columns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers
from sqlglot.tokenizer_core import TokenType

from service.domain.sql import names, writes

MAX_STATEMENT_BYTES = 1 << 20
MAX_MESSAGE_CHARS = 300
_TOKEN_REPR = re.compile(r"<Token token_type: [^,]+, text: (.*?), line: \d+.*?>")


@dataclass(frozen=True)
class SqlStatement:
    sql: str
    query_id: str | None = None
    user: str | None = None
    timestamp: str | None = None


@dataclass(frozen=True)
class Analysis:
    """What phase two needs from phase one: the statement with defaults filled in and
    identifiers normalised by the dialect, each table's key -> its rendered name, and
    each column's normalised name -> its first spelling."""

    dialect_name: str
    dialect: Dialect
    statement: exp.Expr
    tables: dict[names.TableKey, str]
    target: names.TableKey | None
    columns: dict[str, str]


@dataclass(frozen=True)
class Parsed:
    """One statement that parsed. `target`: the table it writes, None for a read or DDL
    (no lineage). `sources`: the stored tables it reads, sorted, never its CTEs nor the
    target itself. `analysis` is phase one's work, for `lineage`; no contract."""

    index: int
    statement: SqlStatement
    target: str | None
    sources: tuple[str, ...]
    analysis: Analysis = field(repr=False, compare=False)


@dataclass(frozen=True)
class Failed:
    index: int
    message: str


def parse(
    statements: Sequence[SqlStatement],
    dialect: str,
    default_database: str | None,
    default_schema: str | None,
) -> list[Parsed | Failed]:
    """Phase one for each statement, in order; ValueError only for an unknown dialect."""
    name, sql_dialect = names.dialect_of(dialect)
    database = names.default_part(default_database, sql_dialect)
    schema = names.default_part(default_schema, sql_dialect)
    reader = _Reader(name, sql_dialect, database, schema)
    return [reader.read(index, statement) for index, statement in enumerate(statements)]


def split_script(text: str, dialect: str) -> list[SqlStatement]:
    """A script -> its statements, cut at the `;` tokens of the dialect's tokenizer, so a
    `;` in a string, a quoted name or a comment does not cut. A script the tokenizer
    cannot read (an unclosed string) is returned whole, for `parse` to report."""
    _, sql_dialect = names.dialect_of(dialect)
    pieces: list[SqlStatement] = []
    start, seen = 0, False
    try:
        for token in sql_dialect.tokenize(text):
            if token.token_type is TokenType.SEMICOLON:
                if seen:
                    pieces.append(SqlStatement(text[start : token.start].strip()))
                start, seen = token.end + 1, False
            else:
                seen = True
    except TokenError:
        return [SqlStatement(text.strip())]
    if seen:
        pieces.append(SqlStatement(text[start:].strip()))
    return pieces


def message_of(exc: BaseException) -> str:
    """A parser's or resolver's complaint, on one short line."""
    if isinstance(exc, ParseError) and exc.errors:
        first = exc.errors[0]
        text = f"{first.get('description')} (line {first.get('line')}, column {first.get('col')})"
    else:
        lines = str(exc).strip().splitlines()
        text = lines[0] if lines else type(exc).__name__
    text = _TOKEN_REPR.sub(r"'\1'", text)
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


class _Reader:
    def __init__(
        self,
        name: str,
        dialect: Dialect,
        database: exp.Identifier | None,
        schema: exp.Identifier | None,
    ) -> None:
        self.name = name
        self.dialect = dialect
        self.database = database
        self.schema = schema

    def read(self, index: int, statement: SqlStatement) -> Parsed | Failed:
        sql = statement.sql
        if len(sql) > MAX_STATEMENT_BYTES or len(sql.encode()) > MAX_STATEMENT_BYTES:
            return Failed(index, f"the statement is longer than {MAX_STATEMENT_BYTES} bytes")
        try:
            expressions = [e for e in sqlglot.parse(sql, dialect=self.dialect) if e is not None]
            if len(expressions) != 1:
                found = "no statement" if not expressions else f"{len(expressions)} statements"
                return Failed(index, f"expected one SQL statement, found {found}")
            return self._parsed(index, statement, expressions[0])
        except RecursionError:
            return Failed(index, "the statement is nested too deeply to analyse")
        except Exception as exc:  # sqlglot raises more than SqlglotError on odd SQL
            return Failed(index, message_of(exc))

    def _parsed(self, index: int, statement: SqlStatement, expression: exp.Expr) -> Parsed:
        target = writes.target_of(expression)
        if target is None and not isinstance(expression, exp.Query):
            analysis = Analysis(self.name, self.dialect, expression, {}, None, {})
            return Parsed(index, statement, None, (), analysis)
        alias = writes.target_alias(expression)
        tables = [t for t in names.stored_tables(expression, self.dialect) if t is not alias]
        if target is not None and all(t is not target for t in tables):
            tables.append(target)  # named like one of its CTEs, it is still written
        written: list[tuple[exp.Table, str]] = []
        for table in tables:
            names.add_defaults(table, self.database, self.schema)
            written.append((table, names.render_table(table, self.dialect)))
        column_names = names.column_identifiers(expression, self.dialect)
        # In place: the nodes stay, so the spellings taken above map the resolved names.
        normalize_identifiers(expression, dialect=self.dialect)
        rendered: dict[names.TableKey, str] = {}
        for table, name in written:
            rendered.setdefault(names.table_key(table), name)
        columns: dict[str, str] = {}
        for identifier, spelling in column_names:
            columns.setdefault(identifier.name, spelling)
        target_key = names.table_key(target) if target is not None else None
        sources = tuple(sorted(name for key, name in rendered.items() if key != target_key))
        analysis = Analysis(self.name, self.dialect, expression, rendered, target_key, columns)
        target_name = rendered[target_key] if target_key is not None else None
        return Parsed(index, statement, target_name, sources, analysis)
