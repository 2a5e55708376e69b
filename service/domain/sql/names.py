"""How a table or column named in SQL is written down for the service (pure; sqlglot).

A name is rendered part by part, each part as the SQL wrote it: an unquoted
identifier keeps its spelling (`Orders` stays `Orders`, never folded here), a
quoted one keeps its quotes in the dialect's style (`"MixedCase"`, `` `proj` ``,
`[My Db]`). Folding case is the platform's rule and a later step applies it; it
can only do that right if it can still tell `"orders"` from `orders`.

Two spellings that the dialect resolves to the same identifier (`Orders` and
`ORDERS` in Snowflake) are one name: they share a key, the parts as the dialect
resolves them, and the first spelling met is the one reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
# Identifiers that name a column (or a column alias) rather than a table or a table alias.
_COLUMN_SLOTS = {
    (exp.Column, "this"),
    (exp.Alias, "alias"),
    (exp.ColumnDef, "this"),
    (exp.Schema, "expressions"),
    (exp.TableAlias, "columns"),
}

TableKey = tuple[str, ...]


class UnknownDialect(ValueError):
    """A dialect name sqlglot does not know (or none): the caller's mistake to name."""


def dialect_of(name: str) -> tuple[str, Dialect]:
    """The sqlglot dialect called `name` (and that name, cleaned); ValueError for a name
    sqlglot does not know. An empty name would silently mean sqlglot's generic SQL, so
    it is refused too."""
    cleaned = name.strip().lower()
    if not cleaned:
        raise UnknownDialect("dialect: a SQL dialect name is required")
    try:
        return cleaned, Dialect.get_or_raise(cleaned)
    except ValueError as exc:
        raise UnknownDialect(f"dialect: unknown SQL dialect {name!r}") from exc


def render(identifier: exp.Expr, dialect: Dialect) -> str:
    """One part as written: quoted with the dialect's quotes, else the bare text."""
    if isinstance(identifier, exp.Identifier) and identifier.quoted:
        return identifier.sql(dialect=dialect)
    return identifier.name


def render_table(table: exp.Table, dialect: Dialect) -> str:
    return ".".join(render(part, dialect) for part in table.parts)


def table_key(table: exp.Table) -> TableKey:
    """The parts of a table already normalised by the dialect."""
    return tuple(part.name for part in table.parts)


def tracer_key(key: TableKey) -> TableKey:
    """`key` as `column_trace` names a table: catalog, db and name, lower-cased."""
    return tuple(part.lower() for part in key[-3:] if part)


def stored_column(name: str, dialect: Dialect) -> exp.Identifier:
    """A stored column name read as an identifier of the dialect (`"Email"` is quoted)."""
    if _PLAIN.fullmatch(name):
        return exp.Identifier(this=name, quoted=False)
    return exp.parse_identifier(name, dialect=dialect)


def normalised(identifier: exp.Identifier, dialect: Dialect) -> str:
    """The identifier as the dialect resolves it, out of any context."""
    alone = exp.Identifier(this=identifier.this, quoted=identifier.quoted)
    return dialect.normalize_identifier(alone).name


def cte_names(expression: exp.Expr, dialect: Dialect) -> set[str]:
    names: set[str] = set()
    for cte in expression.find_all(exp.CTE):
        alias = cte.args.get("alias")
        if isinstance(alias, exp.TableAlias) and isinstance(alias.this, exp.Identifier):
            names.add(normalised(alias.this, dialect))
    return names


def stored_tables(expression: exp.Expr, dialect: Dialect) -> Iterator[exp.Table]:
    """The tables of a statement that name stored relations: not a reference to one of
    its CTEs (a bare name equal to a CTE's), not a table function or a stage."""
    ctes = cte_names(expression, dialect)
    for table in expression.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            continue
        if not table.db and ctes and normalised(table.this, dialect) in ctes:
            continue
        yield table


def default_part(value: str | None, dialect: Dialect) -> exp.Identifier | None:
    return exp.parse_identifier(value, dialect=dialect) if value else None


def add_defaults(
    table: exp.Table, database: exp.Identifier | None, schema: exp.Identifier | None
) -> None:
    """Fill the parts the SQL leaves out, from the right: a schema for a bare name, then
    a database for a name that has a schema (a database without a schema names nothing)."""
    if not table.args.get("db") and schema is not None:
        table.set("db", schema.copy())
    if not table.args.get("catalog") and table.args.get("db") and database is not None:
        table.set("catalog", database.copy())


def column_identifiers(expression: exp.Expr, dialect: Dialect) -> list[tuple[exp.Identifier, str]]:
    """Each identifier naming a column, with its spelling. Taken before the statement is
    normalised in place, to map a resolved name back to how the SQL wrote it."""
    found: list[tuple[exp.Identifier, str]] = []
    for identifier in expression.find_all(exp.Identifier):
        parent = identifier.parent
        if parent is not None and (type(parent), identifier.arg_key) in _COLUMN_SLOTS:
            found.append((identifier, render(identifier, dialect)))
    return found
