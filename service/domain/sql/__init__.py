"""Lineage from SQL: statements or a query log -> tables written and read, and the
columns that feed each written column (pure; sqlglot, no I/O, no database).

names       how a table or column is written down: as the SQL spells it, quotes kept
statements  split_script, parse: phase one, what each statement writes and reads
writes      the table a statement writes and the query whose columns land in it
stored      the service's stored columns, as sqlglot and the tracer want them
outputs     a statement's output columns: named, kept apart, traced per UNION branch
lineage     lineage: phase two, column flows once the tables' stored columns are known
"""

from service.domain.sql.lineage import ColumnFlow, StatementLineage, lineage
from service.domain.sql.statements import Failed, Parsed, SqlStatement, parse, split_script

__all__ = [
    "ColumnFlow",
    "Failed",
    "Parsed",
    "SqlStatement",
    "StatementLineage",
    "lineage",
    "parse",
    "split_script",
]
