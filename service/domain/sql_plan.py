"""SQL statements -> lineage rows to write, between datasets: pure, no I/O.

The SQL package reads each statement (`service.domain.sql`); this module names the
tables it found as datasets of the request's namespace and folds every statement's
table and column flows into one write, by writer (`sql:<source>`). A statement whose
table names the naming rules refuse fails alone, like one that does not parse.
Ends stay DATASET_MARK + the dataset's key until the store resolves them to assets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.domain.datasets import DatasetNameError, DatasetRef, normalise
from service.domain.lineage import DATASET_MARK, column_row
from service.domain.origins import SQL_PREFIX
from service.domain.sql.lineage import StatementLineage
from service.domain.sql.statements import Failed, Parsed, SqlStatement

ORIGIN_PREFIX = SQL_PREFIX


@dataclass
class SqlPlan:
    origin: str
    datasets: list[DatasetRef] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    columns: list[dict[str, Any]] = field(default_factory=list)
    with_lineage: int = 0
    without_lineage: int = 0
    failures: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def table_names(read: Iterable[Parsed | Failed]) -> set[str]:
    names: set[str] = set()
    for item in read:
        if isinstance(item, Parsed) and item.target is not None:
            names.add(item.target)
            names.update(item.sources)
    return names


def datasets_of(
    namespace: str, names: Iterable[str]
) -> tuple[dict[str, DatasetRef], dict[str, str]]:
    """(table name -> its dataset, table name -> why it names none)."""
    found: dict[str, DatasetRef] = {}
    refused: dict[str, str] = {}
    for name in names:
        try:
            found[name] = normalise(namespace, name)
        except DatasetNameError as exc:
            refused[name] = str(exc)
    return found, refused


def schema_for(
    tables: Mapping[str, DatasetRef], stored: Mapping[str, Sequence[str]]
) -> dict[str, Sequence[str]]:
    """The stored columns (by dataset key) as the SQL package asks for them, by table name."""
    return {name: stored[ref.key] for name, ref in tables.items() if ref.key in stored}


def unnamable(item: Parsed, refused: Mapping[str, str]) -> Failed | None:
    bad = [name for name in (item.target, *item.sources) if name is not None and name in refused]
    if not bad:
        return None
    return Failed(item.index, f"table {bad[0]} names no dataset: {refused[bad[0]]}")


def fold(
    origin: str,
    statements: Sequence[SqlStatement],
    outcomes: Sequence[StatementLineage | Parsed | Failed],
    tables: Mapping[str, DatasetRef],
) -> SqlPlan:
    """One write for every statement's lineage: later statements win a transformation.
    `outcomes`: per statement, its lineage, a Parsed with no target (a read or DDL, which
    writes nothing), or why it failed."""
    plan = SqlPlan(origin=origin)
    edges: dict[tuple[str, str], dict[str, Any]] = {}
    columns: dict[tuple[str, str], dict[str, Any]] = {}
    used: dict[str, DatasetRef] = {}
    for outcome in sorted(outcomes, key=lambda o: o.index):
        if isinstance(outcome, Failed):
            plan.failures.append((outcome.index, outcome.message))
            continue
        if isinstance(outcome, Parsed):
            plan.without_lineage += 1
            continue
        plan.with_lineage += 1
        plan.warnings += [f"statement {outcome.index}: {w}" for w in outcome.warnings]
        sql = statements[outcome.index].sql
        target = tables[outcome.target]
        used[target.key] = target
        for source_name in outcome.sources:
            source = tables[source_name]
            used[source.key] = source
            pair = (DATASET_MARK + source.key, DATASET_MARK + target.key)
            edges[pair] = {"source": pair[0], "target": pair[1], "transformation": sql}
        for flow in outcome.columns:
            flowing = tables.get(flow.source_table)
            if flowing is None or flowing.key == target.key:
                continue  # a column computed from the target itself (UPDATE): no edge
            used[flowing.key] = flowing
            row = column_row(
                DATASET_MARK + flowing.key,
                flow.source_column,
                DATASET_MARK + target.key,
                flow.target_column,
                flow.transformation,
                kind=flow.kind,
            )
            edge = (row["source"], row["target"])
            edges.setdefault(edge, {"source": edge[0], "target": edge[1], "transformation": sql})
            columns[(row["source_key"], row["target_key"])] = row
    plan.datasets = [used[k] for k in sorted(used)]
    plan.edges = [edges[k] for k in sorted(edges)]
    plan.columns = [columns[k] for k in sorted(columns)]
    return plan
