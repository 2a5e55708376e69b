"""POST /api/v1/lineage/sql: SQL statements (one, a script, or a query log) become
table and column lineage between the assets holding their tables."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain import sql_plan
from service.domain.access.scopes import Scope
from service.domain.datasets import DatasetNameError, DatasetRef, normalise
from service.domain.sql.lineage import StatementLineage, lineage
from service.domain.sql.names import UnknownDialect
from service.domain.sql.statements import Failed, Parsed, SqlStatement, parse, split_script
from service.errors import validation_error
from service.http import json_response, read_json
from service.models.sql import MAX_SQL_STATEMENTS, SqlIngest, SqlResult
from service.models.validation import validate
from service.openapi import Doc
from service.routing import Replay, Route, bearer
from service.store import domain_guard
from service.store import sql as store

PATH = "/api/v1/lineage/sql"


def _statements(body: SqlIngest) -> list[SqlStatement]:
    if body.statements is not None:
        return [
            SqlStatement(s.sql, query_id=s.query_id, user=s.user, timestamp=s.timestamp)
            for s in body.statements
        ]
    found = split_script(body.sql or "", body.dialect)
    if len(found) > MAX_SQL_STATEMENTS:
        raise validation_error(
            ("body", "sql"), f"more than {MAX_SQL_STATEMENTS} statements", "too_long"
        )
    return found


def _read(
    body: SqlIngest, namespace: DatasetRef
) -> tuple[list[SqlStatement], list[Parsed | Failed], dict[str, DatasetRef], dict[str, str]]:
    """Phase one, off the event loop: statements, what each reads and writes, and the
    dataset each table name is (or why it is none)."""
    try:
        statements = _statements(body)
        read = parse(statements, body.dialect, body.default_database, body.default_schema)
    except UnknownDialect as exc:
        raise validation_error(("body", "dialect"), str(exc), "unknown_dialect") from exc
    tables, refused = sql_plan.datasets_of(namespace.namespace, sql_plan.table_names(read))
    return statements, read, tables, refused


def _trace(
    read: list[Parsed | Failed],
    refused: dict[str, str],
    schema: Mapping[str, Sequence[str]],
) -> list[StatementLineage | Parsed | Failed]:
    """Phase two, off the event loop: column lineage of each statement that writes."""
    outcomes: list[StatementLineage | Parsed | Failed] = []
    for item in read:
        if isinstance(item, Failed) or item.target is None:
            outcomes.append(item)
            continue
        outcomes.append(sql_plan.unnamable(item, refused) or lineage(item, schema))
    return outcomes


async def ingest(request: Request, body: SqlIngest, actor: str) -> SqlResult:
    """What the API and the dashboard's Ingest page both do with a validated request."""
    limits = deps.settings(request).limits
    try:
        namespace = normalise(body.namespace, "_")
    except DatasetNameError as exc:
        raise validation_error(("body", "namespace"), str(exc), "invalid_dataset") from exc
    statements, read, tables, refused = await asyncio.to_thread(_read, body, namespace)
    graph = deps.graph(request)
    stored = await store.stored_columns(graph, [ref.key for ref in tables.values()])
    schema = sql_plan.schema_for(tables, stored)
    outcomes = await asyncio.to_thread(_trace, read, refused, schema)
    plan = sql_plan.fold(sql_plan.ORIGIN_PREFIX + body.source, statements, outcomes, tables)
    await domain_guard.require_rows_writable(
        graph, deps.principal(request), plan.datasets, [*plan.edges, *plan.columns]
    )
    return await store.ingest(
        graph,
        plan,
        len(statements),
        [s.query_id for s in statements],
        actor,
        timeout_s=limits.ingest_timeout_s,
    )


async def post_sql(request: Request) -> Response:
    body = validate(SqlIngest, await read_json(request))
    return json_response(await ingest(request, body, deps.actor(request)))


routes = [
    Route(
        PATH,
        post_sql,
        methods=["POST"],
        name="post_sql",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    )
]

docs = {
    "post_sql": Doc(
        "Ingest SQL as lineage",
        "lineage",
        description="One statement or a script (`sql`), or a query log (`statements`, each "
        "with an optional `query_id`, `user` and `timestamp`), parsed with sqlglot in the "
        "given `dialect`. Every table name, completed with `default_database` and "
        "`default_schema`, is the dataset `(namespace, name)` and resolves to the asset "
        "holding it (a dbt model, an OpenLineage dataset, an API asset); a table no asset "
        "holds becomes a placeholder holding it. A statement that writes a table from others "
        "(`INSERT ... SELECT`, `CREATE TABLE/VIEW AS`, `MERGE`, `UPDATE ... FROM`, CTEs, "
        "subqueries and unions included) makes an edge per table read, with the statement as "
        "its transformation, and a column mapping per target column from each source column "
        "that feeds it (`SELECT *` expanded from the stored columns). Edges have origin "
        "`sql:<source>`. Reads and DDL are counted and write nothing. A statement that does "
        "not parse or whose tables cannot be named is listed in `failures` by index with "
        "the parser's message and writes nothing; the others are written in one "
        "transaction.",
        body=SqlIngest,
        responses={200: SqlResult},
        errors=(413, 415, 422),
    ),
}
