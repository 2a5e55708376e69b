"""/api/v1/lineage: edges one at a time or in bulk, and traversals."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service import clock
from service.api import deps, openlineage
from service.domain import origins
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.domain.history import parse_instant
from service.domain.lineage import EdgeBatch, is_dataset_end, validate_edges
from service.domain.lineage_pages import FILTERS, Filters
from service.errors import FieldError, Unprocessable, validation_error
from service.http import json_response, path_param, read_json
from service.models.assets import MAX_OWNER_LENGTH, MAX_TAG_LENGTH
from service.models.common import NO_CONTROLS_PATTERN
from service.models.lineage import BulkResult, ColumnGraph, Edge, EdgeIn, EdgePage, LineageGraph
from service.models.lineage_history import LineageDiff
from service.models.openlineage import EdgeOrOpenLineageResult, EdgeOrRunEvent
from service.models.validation import validate
from service.openapi import PAGING, Configured, Doc, Param, configured_integer
from service.params import Params
from service.routing import Replay, Route, bearer
from service.store import domain_guard
from service.store import lineage as store
from service.store.lineage_diff import diff as lineage_diff

BASE = "/api/v1/lineage"
DIRECTIONS = ("both", "upstream", "downstream")
# Bounded so that a request carrying all four filters at their limits, percent-encoded
# (up to 12 bytes a character), with the longest asset id and cursor, keeps its head
# well within what the HTTP parser reads (64 KiB): about 53 KiB at most.
MAX_FILTER_VALUES = 8
MAX_FILTER_VALUE = {"type": 64, "platform": 64, "tag": MAX_TAG_LENGTH, "owner": MAX_OWNER_LENGTH}
MAX_CURSOR = 4096
LATEST_INSTANT = "9999-12-31T23:59:59.999Z"


def _strict(request: Request) -> bool:
    return bool(Params(request).flag("strict"))


async def post_edge(request: Request) -> Response:
    strict = _strict(request)  # read for either body: a malformed one is refused alike
    body = await read_json(request)
    if openlineage.is_run_event(body):
        return await openlineage.ingest(request, body)
    edge = validate(EdgeIn, body)
    if edge.source == edge.target:
        raise Unprocessable(
            "An edge cannot point to its own source.",
            code="self_loop",
            errors=[FieldError(("body", "target"), "equals source", "self_loop")],
        )
    await require_edges_writable(request, EdgeBatch.of([edge]))
    saved, created = await store.write_one(deps.graph(request), edge, strict, deps.actor(request))
    return json_response(saved, status=201 if created else 200)


def _owner(params: Params) -> tuple[str, bool]:
    """The origin a bulk request writes as (`api` unless it names one) and whether the
    request is that origin's whole set; 422 naming the parameter."""
    origin = params.text("origin", origins.MAX_ORIGIN)
    replace = params.flag("replace") is True
    if origin is None:
        if replace:
            raise validation_error(
                ("query", "replace"), "replace=true needs an origin whose set it replaces"
            )
        return store.API_ORIGIN, False
    problem = origins.refusal(origin)
    if problem is not None:
        raise validation_error(("query", "origin"), *problem)
    return origin, replace


async def require_edges_writable(request: Request, batch: EdgeBatch) -> None:
    """403 `domain_forbidden` unless the caller may write every edge's target and read
    every source (ends given by id; a dataset end is checked as the id it is written
    under only when that names an asset already)."""
    ends = [(row["source"], row["target"]) for row in (*batch.rows, *batch.columns)]
    await domain_guard.require_writable(
        deps.graph(request),
        deps.principal(request),
        writes=[t for _, t in ends if not is_dataset_end(t)],
        reads=[s for s, _ in ends if not is_dataset_end(s)],
    )


async def post_bulk(request: Request) -> Response:
    limits = deps.settings(request).limits
    strict = _strict(request)
    origin, replace = _owner(Params(request))
    edges = validate_edges(await read_json(request), limits.max_bulk_edges, allow_empty=replace)
    await require_edges_writable(request, edges)
    result = await store.write_bulk(
        deps.graph(request),
        edges,
        strict,
        deps.actor(request),
        origin,
        timeout_s=limits.ingest_timeout_s,
        replace=replace,
    )
    return json_response(store.bulk_json(result))


async def list_edges(request: Request) -> Response:
    paging = deps.paging(request, first=["", ""])
    params = Params(request)
    rows = await store.page_edges(
        deps.graph(request),
        params.text("source", 512),
        params.text("target", 512),
        params.text("origin", 256),
        paging.after,
        paging.fetch,
        readable=domain_rules.readable_private(deps.principal(request)),
    )
    return paging.respond(
        rows,
        key=lambda e: [e.source, e.target],
    )


async def delete_edge(request: Request) -> Response:
    params = Params(request)
    source, target = params.text("source", 512), params.text("target", 512)
    for name, value in (("source", source), ("target", target)):
        if value is None:
            raise validation_error(("query", name), f"{name} is required", "missing")
    await domain_guard.require_writable(
        deps.graph(request), deps.principal(request), [target or ""], [source or ""]
    )
    await store.delete_edge(deps.graph(request), source or "", target or "", deps.actor(request))
    return Response(status_code=204)


def _bounds(request: Request) -> tuple[int, int]:
    """(depth, limit) of a traversal, each within its configured bounds."""
    limits = deps.settings(request).limits
    params = Params(request)
    depth = params.integer("depth", limits.default_lineage_depth, 1, limits.max_lineage_depth)
    limit = params.integer("limit", limits.default_lineage_nodes, 1, limits.max_lineage_nodes)
    return depth, limit


def _filters(params: Params) -> Filters:
    """The repeatable filters, at most MAX_FILTER_VALUES of each, each value within
    its parameter's MAX_FILTER_VALUE; 422 naming the parameter."""
    given = {}
    for name in FILTERS:
        values = params.many(name)
        if len(values) > MAX_FILTER_VALUES:
            raise validation_error(
                ("query", name), f"at most {MAX_FILTER_VALUES} values of {name}", "too_long"
            )
        if any(len(v) > MAX_FILTER_VALUE[name] for v in values):
            raise validation_error(
                ("query", name), f"a {name} is longer than {MAX_FILTER_VALUE[name]} characters"
            )
        given[name] = tuple(values)
    return Filters(**given)


def _walk_options(request: Request, as_of: str | None) -> tuple[Filters, int | None]:
    """(filters, fanout) of a traversal. Neither goes with `as_of` (the past is walked
    over the history layer, which the filters and the hop-by-hop walk do not read): 422
    naming the parameter."""
    params = Params(request)
    filters = _filters(params)
    fanout = None
    if "fanout" in request.query_params:
        fanout = params.integer("fanout", 1, 1, deps.settings(request).limits.max_lineage_fanout)
    given = [n for n in FILTERS if getattr(filters, n)] + ["fanout"] * (fanout is not None)
    if as_of is not None and given:
        raise validation_error(
            ("query", given[0]), f"{given[0]} does not go with as_of", "unsupported_combination"
        )
    return filters, fanout


def _as_asked(params: Params) -> str | None:
    """`as_of` as the graph stores instants, not moved back to now when it lies in the
    future (the store reads such an instant as now): the walk a cursor names stays the
    same walk from page to page."""
    checked = params.instant("as_of")
    raw = params.text("as_of")
    return None if checked is None or raw is None else parse_instant(raw, LATEST_INSTANT)


async def _traverse(request: Request, direction: str) -> Response:
    depth, limit = _bounds(request)
    params = Params(request)
    as_of = _as_asked(params)
    filters, fanout = _walk_options(request, as_of)
    graph = await store.traverse(
        deps.graph(request),
        path_param(request, "asset_id"),
        direction,
        depth,
        limit,
        token_hash=deps.token_to_recheck(request),
        as_of=as_of,
        cursor=params.text("cursor", MAX_CURSOR),
        filters=filters,
        fanout=fanout,
        viewer=deps.principal(request),
        seal=deps.cursor_seal(request),
    )
    return json_response(graph)


async def lineage(request: Request) -> Response:
    return await _traverse(request, Params(request).choice("direction", DIRECTIONS, "both"))


async def upstream(request: Request) -> Response:
    return await _traverse(request, "upstream")


async def diff(request: Request) -> Response:
    asset_id = path_param(request, "asset_id")  # a broken path is 400 before any query check
    params = Params(request)
    direction = params.choice("direction", DIRECTIONS, "both")
    depth, limit = _bounds(request)
    since = params.instant("from")
    if since is None:
        raise validation_error(("query", "from"), "from is required", "missing")
    until = params.instant("to") or clock.now_iso()
    if since > until:
        raise validation_error(("query", "from"), "from must not be after to", "out_of_range")
    await domain_guard.require_readable(deps.graph(request), deps.principal(request), asset_id)
    changes = await lineage_diff(
        deps.graph(request),
        asset_id,
        direction,
        depth,
        limit,
        since,
        until,
        token_hash=deps.token_to_recheck(request),
        viewer=deps.principal(request),
    )
    return json_response(changes)


async def downstream(request: Request) -> Response:
    return await _traverse(request, "downstream")


async def _traverse_column(request: Request, direction: str) -> Response:
    depth, limit = _bounds(request)
    asset_id = path_param(request, "asset_id")
    await domain_guard.require_readable(deps.graph(request), deps.principal(request), asset_id)
    graph = await store.traverse_columns(
        deps.graph(request),
        asset_id,
        path_param(request, "column"),
        direction,
        depth,
        limit,
        as_of=Params(request).instant("as_of"),
        viewer=deps.principal(request),
    )
    return json_response(graph)


async def column_upstream(request: Request) -> Response:
    return await _traverse_column(request, "upstream")


async def column_downstream(request: Request) -> Response:
    return await _traverse_column(request, "downstream")


routes = [
    Route(
        BASE,
        post_edge,
        methods=["POST"],
        name="post_edge",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    ),
    Route(
        BASE + "/bulk",
        post_bulk,
        methods=["POST"],
        name="post_bulk",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    ),
    Route(
        BASE + "/edges", list_edges, methods=["GET"], name="list_edges", policy=bearer(Scope.READ)
    ),
    Route(
        BASE + "/edges",
        delete_edge,
        methods=["DELETE"],
        name="delete_edge",
        policy=bearer(Scope.WRITE, per_domain=True),
    ),
    Route(
        BASE + "/{asset_id}/upstream",
        upstream,
        methods=["GET"],
        name="lineage_upstream",
        policy=bearer(Scope.READ, rechecked=True),
    ),
    Route(
        BASE + "/{asset_id}/downstream",
        downstream,
        methods=["GET"],
        name="lineage_downstream",
        policy=bearer(Scope.READ, rechecked=True),
    ),
    Route(
        BASE + "/{asset_id}/diff",
        diff,
        methods=["GET"],
        name="lineage_diff",
        # Looked up on every request: its walks do not compare the remembered roles.
        policy=bearer(Scope.READ),
    ),
    Route(
        BASE + "/{asset_id}/columns/{column}/upstream",
        column_upstream,
        methods=["GET"],
        name="column_lineage_upstream",
        policy=bearer(Scope.READ),
    ),
    Route(
        BASE + "/{asset_id}/columns/{column}/downstream",
        column_downstream,
        methods=["GET"],
        name="column_lineage_downstream",
        policy=bearer(Scope.READ),
    ),
    Route(
        BASE + "/{asset_id:path}",
        lineage,
        methods=["GET"],
        name="lineage",
        policy=bearer(Scope.READ, rechecked=True),
    ),
]

_STRICT = Param(
    "strict",
    schema={"type": "boolean", "default": False},
    description="422 unknown_assets instead of creating placeholder assets",
)
_DEPTH = Param("depth", schema=configured_integer("max_lineage_depth", "default_lineage_depth"))
_LIMIT = Param(
    "limit",
    schema=configured_integer("max_lineage_nodes", "default_lineage_nodes"),
    description="most nodes in the answer (for a traversal: in one page, the root on the "
    "first page included); then truncated=true",
)
_INSTANT = {"type": "string", "format": "date-time"}
_CURSOR = Param(
    "cursor",
    schema={"type": "string", "pattern": f"^[A-Za-z0-9_-]{{0,{MAX_CURSOR}}}$"},
    description="`next_cursor` of the previous page, with the same root, `direction`, "
    "`depth`, `as_of`, filters and `fanout` (`limit` may change): the next nodes in "
    "(distance, readable before stand-in, id) order. 400 `invalid_cursor` when it does "
    "not decode, was made for other parameters (`detail` and `parameter` name the one "
    "that differs) or by a version that ordered pages by (distance, id) alone (start "
    "again from the first page)",
)


def _filter_values(name: str) -> dict[str, object]:
    return {
        "type": "array",
        "items": {"type": "string", "maxLength": MAX_FILTER_VALUE[name]},
        "maxItems": MAX_FILTER_VALUES,
    }


_FILTERS = tuple(
    Param(
        name,
        schema=_filter_values(name),
        description=f"repeatable: show only assets whose {what} is one of these (any of "
        "the values; all of the filter parameters given). Hidden assets are still walked "
        "through and counted in `hidden`, and so is every asset the caller may not read "
        "(a private domain where they hold no role), whether it matches or not; not with "
        "`as_of` (422)",
    )
    for name, what in (
        ("type", "type"),
        ("platform", "platform"),
        ("tag", "tags hold one"),
        ("owner", "owners hold one"),
    )
)
_FANOUT = Param(
    "fanout",
    schema={"type": "integer", "minimum": 1, "maximum": Configured("max_lineage_fanout")},
    description="each asset reached expands at most this many neighbours (the first by "
    "id); the cut ones are listed in `capped`. Walked hop by hop (one statement per hop, "
    "still linear in what is reached); not with `as_of` (422)",
)
_AS_OF = Param(
    "as_of",
    schema=_INSTANT,
    description="an RFC 3339 instant with an offset (`Z`, `+02:00`): the lineage as it stood "
    "then (edges, their transformations, and assets as their version of that moment showed "
    "them). 404 `asset_not_found` when the root did not exist then; an instant in the future "
    "reads as now; 422 naming `as_of` when it is not an instant",
)
_TRAVERSAL = (
    "Each reached asset once, at its fewest-hop distance, nearest first (ties by id), and "
    "the edges among them sorted by source, then target; cost grows with "
    "what is reached, never with the number of paths; cycles terminate. Edges here carry no "
    "column mappings (so traversal stays cheap): read them with `GET /lineage/edges` or the "
    "column lineage operations.\n\n"
    "**Pages.** An answer holds at most `limit` nodes (the root, on the first page only, "
    "counted); `next_cursor` continues with the next ones, so across pages every node of "
    "the neighbourhood comes exactly once, in (distance, id) order (at each distance the "
    "stand-ins for assets the caller may not read after the readable nodes, see "
    "**Stand-ins**); with both directions "
    "a page takes from both sides in that order (downstream first on a tie) and the "
    "cursor keeps each side's position. `remaining` counts, per asked side, the nodes "
    "left after this page; `truncated` is `next_cursor != null`. Each page carries the "
    "edges joining one of its nodes to a node of this or an earlier page (the root "
    "included), so every edge comes exactly once, on the page of its later end. Every "
    "page walks the whole neighbourhood again (one statement, no path enumeration), so "
    "a late page costs what the first does.\n\n"
    "**Between pages** nothing is held: each page reads the graph as it is then. The "
    "positions are (distance, hidden, key), the key an id (a stand-in's: its shuffled "
    "key), "
    "so a node that moved to a position the reader "
    "already passed (it came closer, or its side changed) is skipped (an edge on a later "
    "page may still name it); one that moved "
    "further, past the position, comes again; a node added past the position comes, one "
    "removed does not; an edge comes with the later of its ends, so it is missed when "
    "that end was read before the edge existed. `remaining` is exact for the moment of "
    "each page. A reader that needs one consistent picture reads with `as_of` at an "
    "instant already past (the history does not change: pages never skip or repeat; an "
    "instant in the future reads each page as of its own now).\n\n"
    "**Filters** (`type`, `platform`, `tag`, `owner`) choose which walked assets are "
    "shown; the walk goes through the others, shown assets keep their true distance, "
    "and `hidden` counts the rest per side. Edges are direct edges only: two shown assets "
    "joined only through hidden ones have no edge between them in the answer (their "
    "distances still tell how far they are). With a filter, an asset the caller may not "
    "read is never shown as a stand-in, so that showing it would not tell that it "
    "matches: it is counted in `hidden`.\n\n"
    "**`fanout`** caps each asset's expansion at that many neighbours (first by id); "
    "edges are then the ones the walk followed, and `capped` lists "
    "`{id, direction, shown, total}` for each asset whose neighbours were cut (an asset "
    "the caller may not read only under its stand-in's id, when that is on the page). "
    "Pages and "
    "filters work with it.\n\n"
    "**Stand-ins.** An asset the caller may not read (a private domain where they hold no "
    "role) is a stand-in (`redacted` true, `id` `redacted:<n>` numbering the page's "
    "stand-ins, `team` owning its domain), edges keeping their shape under its id. At each "
    "distance the stand-ins come after the readable nodes, and edges and `capped` are "
    "sorted by the ids shown: in (distance, id) order a stand-in's place would tell how its "
    "hidden id sorts against the readable ones. Among themselves the stand-ins of one "
    "distance follow a shuffle drawn for the walk from the service's secret, so neither "
    "does their order. A caller who reads everything sees (distance, id) order."
)
_COLUMN_TRAVERSAL = (
    "The column's lineage: each reached column (`asset`, `column`) once, at its fewest-hop "
    "distance, nearest first, the root included at distance 0, and the column mappings "
    "among them in data-flow direction (source -> target). Same linear-cost walk as asset "
    "lineage; cycles terminate. Both path segments are percent-encoded (an asset id may hold "
    "`/`). 404 `asset_not_found` for an unknown asset; 404 `column_not_found` for a column "
    "that is neither among the asset's columns nor in any column lineage (a declared column "
    "without lineage answers just the root). A column of an asset the caller may not read (a "
    "private domain where they hold no role) is a stand-in (`redacted` true): its `asset` is "
    "`redacted:<n>` (one per asset in the answer) and its `column` `redacted:<m>` (one per "
    "column), since a column's name would tell the hidden asset's schema; it names only the "
    "owning `team`. Its distance and its mappings are kept (a mapping touching a stand-in "
    "without its transformation), so the counts are complete; `redacted` counts the "
    "stand-ins. Who may read an asset is decided as of now, also with `as_of`."
)
_EDGE_BODY = (
    'An edge may carry `columns`: `[{"source", "target", "transformation"?}]`, source '
    "column of the source asset -> target column of the target asset. They are added to "
    "the edge's mappings (a pair of columns is one mapping; a given transformation replaces "
    "its old one); deleting the edge deletes them."
)
_OWNED_SET = (
    "The edges and mappings are asserted by `origin` (`api` when none is named). With "
    "`replace=true` the request is that origin's whole set: edges and column mappings it "
    "asserted before and the request leaves out lose its assertion, and one that no other "
    "origin asserts leaves the graph, an edge with its column mappings (each edge "
    "announced by `lineage.edge.deleted`); `retired` in the answer counts them. An empty array is accepted "
    "only with `replace=true` (the origin now asserts nothing); a set larger than one "
    "request cannot be replaced."
)
_ORIGIN = Param(
    "origin",
    schema={"type": "string", "minLength": 1, "maxLength": origins.MAX_ORIGIN}
    | {"pattern": NO_CONTROLS_PATTERN},
    description="the writer asserting these edges, e.g. `sync:crm`. `api` and names "
    "starting with `dbt:`, `openlineage:` or `sql:` (in any case) belong to the service's "
    "own writers and are 422",
)
_REPLACE = Param(
    "replace",
    schema={"type": "boolean", "default": False},
    description="the request is `origin`'s whole edge set (422 without `origin`)",
)
# An id to match, as given: one that breaks the id rule matches nothing.
_ID_FILTER = {"type": "string", "maxLength": 512}
docs = {
    "post_edge": Doc(
        "Create or update one lineage edge",
        "lineage",
        description="201 for a new edge, 200 when the pair existed (its transformation is "
        "replaced when one is given). Unknown endpoints become placeholder assets. "
        + _EDGE_BODY
        + " The body may instead be one OpenLineage RunEvent (recognised by `eventType`, `run` "
        "or `job`), as the OpenLineage clients send by default: it is handled exactly as by "
        "`POST /lineage/openlineage` and answered 200 with that summary.",
        body=EdgeOrRunEvent,
        params=(_STRICT,),
        responses={200: EdgeOrOpenLineageResult, 201: Edge},
        errors=(415, 422),
    ),
    "post_bulk": Doc(
        "Upsert 1-10,000 edges atomically",
        "lineage",
        description="Validated whole first (422 lists each bad item by index, nothing written), "
        "then written in one transaction. Duplicate pairs count once; the last transformation "
        "wins. Idempotent. "
        + _EDGE_BODY
        + " Duplicate column mappings count once; `column_mappings` is in the answer when the "
        "request carried `columns`. " + _OWNED_SET,
        body={
            "type": "array",
            "items": {"$ref": "#/components/schemas/EdgeIn"},
            "minItems": 0,
            "maxItems": Configured("max_bulk_edges"),
        },
        params=(_STRICT, _ORIGIN, _REPLACE),
        responses={200: BulkResult},
        errors=(413, 415, 422),
    ),
    "list_edges": Doc(
        "List edges ordered by (source, target)",
        "lineage",
        description="Each edge with its column mappings (`columns`, by source then target "
        "column, each with its own transformation and origins).",
        params=(
            *PAGING,
            Param("source", schema=_ID_FILTER),
            Param("target", schema=_ID_FILTER),
            Param("origin", schema={"type": "string", "maxLength": 256}),
        ),
        responses={200: EdgePage},
        errors=(422,),
    ),
    "delete_edge": Doc(
        "Delete one edge",
        "lineage",
        description="Its column mappings go with it.",
        params=(
            Param("source", required=True, schema=_ID_FILTER | {"minLength": 1}),
            Param("target", required=True, schema=_ID_FILTER | {"minLength": 1}),
        ),
        responses={204: None},
        errors=(404, 422),
    ),
    "lineage_upstream": Doc(
        "Upstream lineage of an asset",
        "lineage",
        description=_TRAVERSAL,
        params=(_DEPTH, _LIMIT, _AS_OF, _CURSOR, *_FILTERS, _FANOUT),
        responses={200: LineageGraph},
        errors=(400, 404, 422),
    ),
    "lineage_downstream": Doc(
        "Downstream lineage of an asset",
        "lineage",
        description=_TRAVERSAL,
        params=(_DEPTH, _LIMIT, _AS_OF, _CURSOR, *_FILTERS, _FANOUT),
        responses={200: LineageGraph},
        errors=(400, 404, 422),
    ),
    "column_lineage_upstream": Doc(
        "Upstream lineage of a column",
        "lineage",
        description=_COLUMN_TRAVERSAL,
        params=(_DEPTH, _LIMIT, _AS_OF),
        responses={200: ColumnGraph},
        errors=(404, 422),
    ),
    "column_lineage_downstream": Doc(
        "Downstream lineage of a column",
        "lineage",
        description=_COLUMN_TRAVERSAL,
        params=(_DEPTH, _LIMIT, _AS_OF),
        responses={200: ColumnGraph},
        errors=(404, 422),
    ),
    "lineage": Doc(
        "Lineage of an asset in one or both directions",
        "lineage",
        description=_TRAVERSAL,
        params=(
            _DEPTH,
            _LIMIT,
            Param("direction", schema={"enum": list(DIRECTIONS), "default": "both"}),
            _AS_OF,
            _CURSOR,
            *_FILTERS,
            _FANOUT,
        ),
        responses={200: LineageGraph},
        errors=(400, 404, 422),
    ),
    "lineage_diff": Doc(
        "What changed in an asset's lineage between two instants",
        "lineage",
        description="The traversal (`direction`, `depth`, `limit` as for `GET /lineage/{id}`) "
        "at `from` and at `to`, compared over the union of both neighbourhoods: `added` holds "
        "the nodes and edges there at `to` and not at `from` (as shown at `to`), `removed` "
        "those there at `from` and not at `to` (as shown at `from`), in the traversal's node "
        "and edge shapes. An edge there at both instants whose transformation changed is in "
        "neither: it is in `changed.edges`, with its transformation at `to` and "
        "`previous_transformation` at `from`. Assets the caller may not read (a private "
        "domain where they hold no role) are stand-ins as in a traversal (`redacted:<n>`, "
        "numbered once across the answer, with the owning `team`), edges touching them keep "
        "their place with neither transformation, and `redacted` counts them: every "
        "change is still listed. A root that existed at only one instant has an "
        "empty neighbourhood at the other (everything is added, or removed); 404 "
        "`asset_not_found` when it existed at neither. 422 naming `from` or `to` when one is "
        "not an RFC 3339 instant with an offset, `from` is missing, or `from` is after `to`.",
        params=(
            Param("from", required=True, schema=_INSTANT, description="the earlier instant"),
            Param(
                "to",
                schema=_INSTANT,
                description="the later instant; absent: now (one in the future reads as now)",
            ),
            Param("direction", schema={"enum": list(DIRECTIONS), "default": "both"}),
            _DEPTH,
            _LIMIT,
        ),
        responses={200: LineageDiff},
        errors=(404, 422),
    ),
}
