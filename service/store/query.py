"""The query facility's reads: a compiled query, or an admin's guarded Cypher, each in
one READ transaction with the query timeout (`Graph.read_unit`).

A query that runs past the timeout is 422 `query_timeout`: the same query on the same
data would time out again, so it is the request to change, not a moment to retry
(a 5xx would invite the client libraries to retry it).
"""

from __future__ import annotations

import re
from typing import Any, LiteralString, cast

import neo4j

from service.domain.cursor import encode_cursor
from service.domain.query import Compiled
from service.domain.query.bounds import size_refusal
from service.domain.query.guard import refusal
from service.errors import FieldError, Unprocessable
from service.graph import Graph
from service.models.query import CypherQuery, CypherResult, QueryResult
from service.store.cypher_values import to_json

_STATEMENT_ERRORS = ("Neo.ClientError.Statement.", "Neo.ClientError.Procedure.")
_ADMINISTRATION = re.compile(r"\bAdministration Commands?\b", re.IGNORECASE)
_OWN_PLAN = re.compile(r"^\s*(?:EXPLAIN|PROFILE)\b", re.IGNORECASE)


async def run(graph: Graph, compiled: Compiled) -> QueryResult:
    async def work(tx: neo4j.AsyncTransaction) -> dict[str, Any]:
        result = await tx.run(compiled.text, compiled.params)
        record = await result.single()
        return {name: record[name] for name in compiled.columns} if record is not None else {}

    try:
        row = await graph.read_unit(work)
    except neo4j.exceptions.Neo4jError as exc:
        mapped = _timeout(exc, graph.timeout_s) or _out_of_memory(exc)
        if mapped is None:
            raise
        raise mapped from exc
    parts, after = compiled.answer(row)
    next_cursor = encode_cursor({"after": after}) if after is not None else None
    return QueryResult(**parts, next_cursor=next_cursor)


async def run_cypher(graph: Graph, request: CypherQuery) -> CypherResult:
    """EXPLAIN first and refuse anything but a plain read (`guard`); then run it in the
    same READ transaction, keeping at most `limit` rows."""
    # The text is the administrator's own; it runs only once the guard passed its plan,
    # inside a READ transaction that Neo4j itself keeps from writing.
    text = cast(LiteralString, request.query)  # type: ignore[redundant-cast]

    # The guard judges the plan of the query itself, so a query that asks for its own
    # plan (EXPLAIN, PROFILE) is planned without that word.
    planned = cast(LiteralString, _OWN_PLAN.sub("", request.query, count=1))  # type: ignore[redundant-cast]

    async def work(tx: neo4j.AsyncTransaction) -> CypherResult:
        explained = await (await tx.run("EXPLAIN " + planned, request.parameters)).consume()
        reason = refusal(explained.query_type, explained.plan)
        if reason:
            raise _forbidden(reason)
        too_large = size_refusal(request.query, explained.plan)
        if too_large:
            raise _too_large(too_large)
        result = await tx.run(text, request.parameters)
        columns = list(result.keys())
        rows: list[list[Any]] = []
        async for record in result:
            if len(rows) == request.limit:
                return CypherResult(columns=columns, rows=rows, truncated=True)
            rows.append([to_json(value) for value in record.values()])
        return CypherResult(columns=columns, rows=rows, truncated=False)

    try:
        return await graph.read_unit(work)
    except neo4j.exceptions.Neo4jError as exc:
        mapped = (
            _timeout(exc, graph.timeout_s)
            or _out_of_memory(exc)
            or _statement_error(exc)
            or _failed_inside(exc)
        )
        if mapped is None:
            raise
        raise mapped from exc


def _timeout(exc: neo4j.exceptions.Neo4jError, timeout_s: float) -> Unprocessable | None:
    if "TransactionTimedOut" not in (exc.code or ""):
        return None
    return Unprocessable(
        f"The query ran longer than the {timeout_s:g} s limit and was stopped; "
        "narrow it (fewer start assets, a smaller depth, a stricter filter).",
        code="query_timeout",
    )


def _out_of_memory(exc: neo4j.exceptions.Neo4jError) -> Unprocessable | None:
    """Neo4j ran out of memory for this query (its transaction limit, a memory pool or
    the heap): running it again would do the same, so it is the request to change."""
    if not (exc.code or "").endswith("OutOfMemoryError"):
        return None
    return _too_large(f"Neo4j ran out of memory running it ({exc.code})")


def _too_large(reason: str) -> Unprocessable:
    return Unprocessable(
        f"The query could use more memory than Neo4j can give it: {reason}; "
        "make it build smaller lists or return fewer values.",
        code="query_too_large",
        errors=[FieldError(("body", "query"), reason, "query_too_large")],
    )


def _forbidden(reason: str) -> Unprocessable:
    return Unprocessable(
        f"Only plain reads may run here: {reason}.",
        code="forbidden_query",
        errors=[FieldError(("body", "query"), reason, "forbidden_query")],
    )


def _failed_inside(exc: neo4j.exceptions.Neo4jError) -> Unprocessable | None:
    """Neo4j failed while running the caller's statement (a string grown past what it
    can hold, say): the query is what to change, and running it again fails again."""
    if not (exc.code or "").startswith("Neo.DatabaseError.Statement."):
        return None
    reason = f"Neo4j could not run it ({exc.code})"
    return Unprocessable(
        f"The query failed inside Neo4j: {reason}; make it build smaller values.",
        code="query_failed",
        errors=[FieldError(("body", "query"), reason, "query_failed")],
    )


def _statement_error(exc: neo4j.exceptions.Neo4jError) -> Unprocessable | None:
    """Neo4j could not compile or run the text (syntax, unknown procedure, another
    database named in USE, a division by zero): the administrator's own query."""
    code = exc.code or ""
    if code == "Neo.ClientError.Statement.AccessMode":
        return _forbidden("the query writes")
    if _ADMINISTRATION.search(exc.message or ""):  # Neo4j's words for `USE system SHOW ...`
        return _forbidden("an administration command")
    if not code.startswith(_STATEMENT_ERRORS):
        return None
    message = exc.message or "Neo4j refused the query."
    return Unprocessable(
        message,
        code="invalid_query",
        errors=[FieldError(("body", "query"), message, code.rsplit(".", 1)[-1])],
    )
