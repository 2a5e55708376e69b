"""The service's stored columns for a statement's tables, as sqlglot and the tracer
want them (pure).

The service knows each table's columns as stored names (`EMAIL`, `"Email"`), keyed
by the names `Parsed` reports. Here they are resolved by the dialect's case rule,
like the statement itself, so `email` in the SQL finds `EMAIL` in Snowflake, and
handed to sqlglot's optimizer (to expand `*`, bind unqualified columns) and to
`dbt.column_trace` (which names tables lower-cased).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlglot.dialects.dialect import Dialect
from sqlglot.schema import MappingSchema

from service.domain.dbt.column_trace import ColumnsOf
from service.domain.sql import names

MAX_DEPTH = 3  # catalog, db, table: all sqlglot's schema holds


@dataclass(frozen=True)
class Stored:
    """`columns`: resolved column names per table key; `spelling`: a resolved column
    name -> the name as stored."""

    columns: Mapping[names.TableKey, tuple[str, ...]]
    spelling: Mapping[str, str]

    def sqlglot_schema(self, dialect: Dialect) -> MappingSchema:
        """Already resolved, so `normalize=False`; at the one nesting depth most tables
        share, as sqlglot's schema holds one depth (the rest go without: a `*` over
        them stays unexpanded)."""
        depths = [len(key) for key in self.columns if len(key) <= MAX_DEPTH]
        mapping: dict[str, object] = {}
        if depths:
            depth = max(sorted(set(depths)), key=depths.count)
            for key, columns in self.columns.items():
                if len(key) == depth:
                    level = mapping
                    for part in key[:-1]:
                        nested = level.setdefault(part, {})
                        assert isinstance(nested, dict)
                        level = nested
                    level[key[-1]] = dict.fromkeys(columns, "UNKNOWN")
        return MappingSchema(mapping, dialect=dialect, normalize=False)

    def columns_of(self) -> ColumnsOf:
        """The tracer's view: lower-cased table parts -> lower-cased column names."""
        lowered = {
            names.tracer_key(key): frozenset(c.lower() for c in columns)
            for key, columns in self.columns.items()
        }
        return lowered.get


NOTHING = Stored({}, {})


def read(
    tables: Mapping[names.TableKey, str], schema: Mapping[str, Sequence[str]], dialect: Dialect
) -> Stored:
    """The stored columns of `tables` (key -> name); only these are looked up, so the
    cost follows the statement, not the size of `schema`."""
    columns: dict[names.TableKey, tuple[str, ...]] = {}
    spelling: dict[str, str] = {}
    for key, name in tables.items():
        stored = schema.get(name)
        if stored is None:
            continue
        resolved = []
        for column in stored:
            if column:
                identifier = names.stored_column(column, dialect)
                resolved.append(names.normalised(identifier, dialect))
                spelling.setdefault(resolved[-1], column)
        columns[key] = tuple(resolved)
    return Stored(columns, spelling)


def by_tracer_key(
    tables: Mapping[names.TableKey, str],
) -> tuple[dict[names.TableKey, str], set[names.TableKey]]:
    """Table names by the key `column_trace` gives them (lower-cased), and the keys two
    tables share because only case tells them apart (`"Orders"` and `orders`): those
    are left out rather than guessed. A key in neither is no stored table (a table
    function such as `read_parquet(...)`)."""
    found: dict[names.TableKey, str] = {}
    clashes: set[names.TableKey] = set()
    for key, name in tables.items():
        lowered = names.tracer_key(key)
        if lowered in found:
            clashes.add(lowered)
        found[lowered] = name
    return {key: name for key, name in found.items() if key not in clashes}, clashes
