"""/api/v1/query: the JSON query language, and guarded read-only Cypher."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.domain.cursor import decode_cursor
from service.domain.query import Bounds, compile_query
from service.errors import validation_error
from service.graph import Graph
from service.http import json_response, read_json
from service.models.query import CypherQuery, CypherResult, Query, QueryResult
from service.models.validation import validate
from service.openapi import Doc
from service.routing import Replay, Route, bearer
from service.store import audit, identity
from service.store import query as store

BASE = "/api/v1/query"


async def post_query(request: Request) -> Response:
    limits = deps.settings(request).limits
    query = validate(Query, await read_json(request))
    after = decode_cursor(query.cursor, ["after"])["after"] if query.cursor else None
    query = await _current_ids(deps.graph(request), query)
    readable = domain_rules.readable_private(deps.principal(request))
    compiled = compile_query(query, Bounds.of(limits), after, readable)
    result = await store.run(deps.graph(request), compiled)
    parts = result.model_dump(mode="json")
    return json_response({k: v for k, v in parts.items() if v is not None or k == "next_cursor"})


async def _current_ids(graph: Graph, query: Query) -> Query:
    """The query with former ids (aliases) replaced by the ids of the assets they name."""
    named = [
        *(query.start.ids or [] if query.start else []),
        *([query.path.from_, query.path.to] if query.path else []),
    ]
    current = await identity.aliased_read(graph, named)
    if not current:
        return query
    update: dict[str, Any] = {}
    if query.start and query.start.ids:
        ids = [current.get(i, i) for i in query.start.ids]
        update["start"] = query.start.model_copy(update={"ids": ids})
    if query.path:
        ends = {"from_": current.get(query.path.from_, query.path.from_)}
        ends["to"] = current.get(query.path.to, query.path.to)
        update["path"] = query.path.model_copy(update=ends)
    return query.model_copy(update=update)


async def post_cypher(request: Request) -> Response:
    body = validate(CypherQuery, await read_json(request))
    most = deps.settings(request).limits.max_lineage_nodes
    if body.limit > most:
        raise validation_error(("body", "limit"), f"limit must be at most {most}", "out_of_range")
    graph = deps.graph(request)
    result = await store.run_cypher(graph, body)
    ran = {
        **audit.query_digest(body.query),
        "parameters": sorted(body.parameters),
        "rows": len(result.rows),
        "truncated": result.truncated,
    }
    await audit.record_alone(graph, "query.cypher", ran, deps.actor(request))
    return json_response(result)


routes = [
    Route(
        BASE,
        post_query,
        methods=["POST"],
        name="post_query",
        policy=bearer(Scope.READ, replay=Replay.READ_ONLY),
    ),
    Route(
        BASE + "/cypher",
        post_cypher,
        methods=["POST"],
        name="post_cypher",
        policy=bearer(Scope.ADMIN, replay=Replay.READ_ONLY),
    ),
]

docs = {
    "post_query": Doc(
        "Query the lineage graph with the JSON query language",
        "query",
        description=(
            "`start` (ids or a FILTER) with an optional `traverse`, or `path` (shortest "
            "paths between two assets). FILTER: type, platform, tags_all, tags_any, owner, "
            "id_prefix, name_contains, placeholder, has_upstream, has_downstream, "
            "properties; a list means any of its values. `traverse.where` picks the "
            "returned assets, `traverse.through` the assets a path may pass through "
            "(its intermediate assets). `distance` is the fewest hops from any start "
            "asset; a start asset is returned only when another start reaches it, or "
            "with `min_depth` 0. Traversals cost what they reach, never the number of "
            "paths. Depths are at most GOVERNANCE_MAX_LINEAGE_DEPTH (the schema's "
            "maximum). Pages: `limit` items (default 100, at most "
            "GOVERNANCE_MAX_LINEAGE_NODES), ordered by (distance, "
            "id) for nodes and graphs, (source, target) for edges; pass `next_cursor` "
            "back as `cursor` with the same query. A path query enumerates at most "
            "as many paths as `limit`'s maximum (`truncated` says when more exist). A "
            "malformed query is 422 with the field in `errors[].loc`; past the query "
            "timeout, 422 query_timeout; out of Neo4j memory, 422 query_too_large. "
            "An asset in a private domain where the caller holds no role (global admins "
            "hold every one) is never a start or a path's end (as an unknown id), never "
            "matches `where` or `through`, and is left out of `nodes`, `edges`, `graph` "
            "and `count`, while walks still pass through it to the assets beyond; in "
            "`paths` it is a stand-in `redacted:<n>` (numbered within the answer), so a "
            "path is never cut."
        ),
        body=Query,
        responses={200: QueryResult},
        errors=(415, 422),
    ),
    "post_cypher": Doc(
        "Run a read-only Cypher query (administrators)",
        "query",
        description=(
            "Runs in a READ transaction with the query timeout, keeping at most `limit` "
            "rows (default 1,000, at most GOVERNANCE_MAX_LINEAGE_NODES; then "
            "`truncated`). Neo4j's plan (EXPLAIN) must "
            "be a read (query type r) with no LOAD CSV, no SHOW/TERMINATE or "
            "administration command, no CALL IN TRANSACTIONS, and only the procedures "
            "db.labels, db.relationshipTypes, db.propertyKeys, db.schema.visualization, "
            "db.schema.nodeTypeProperties and db.schema.relTypeProperties; otherwise 422 "
            "forbidden_query and nothing runs. The service's secrets are never read: a plan "
            "naming the labels User, Session, ApiToken or IdempotencyRecord or the properties "
            "password_hash, login_key or csrf, or starting from a node without a label "
            "(MATCH (n), (n:!Asset), a dynamic label, a node found by elementId() or id()), "
            "is 422 forbidden_query too. Text Neo4j cannot compile or run is 422 "
            "invalid_query; past the timeout, 422 query_timeout. A range() that is not the "
            "whole of an UNWIND needs integer literal bounds spanning at most 100,000 "
            "values (all of a query's together at most 1,000,000), else 422 "
            "query_too_large; so is a query Neo4j stops for lack of memory. Nodes come back as "
            "{element_id, labels, properties}, relationships as {element_id, type, "
            "start, end, properties}, paths as {nodes, relationships}."
        ),
        body=CypherQuery,
        responses={200: CypherResult},
        errors=(415, 422),
    ),
}
