"""/lineage (pick an asset) and /lineage/{id} (the interactive graph, now or as of a
moment, or two moments compared: `lineage_time`), plus the session-authenticated JSON
the page's script reads under /ui/lineage.

The asset graph is the API's own traversal (`store.lineage.traverse`), so the page
and `/api/v1/lineage` never disagree about a graph; the page's copy also carries,
from one more read, each node's dataset and each edge's origins (the writers that
assert it), which the API's traversal answer leaves out. Column graphs are the API's
own handlers behind the session check.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import assets as assets_api
from service.api import deps
from service.api import lineage as lineage_api
from service.dashboard.lineage_time import Moments, Walk, view_at
from service.dashboard.render import html, page_route
from service.dashboard.session_json import session_json_route
from service.domain.access.scopes import Scope
from service.domain.lineage import LineageView
from service.errors import NotFound
from service.graph import Graph
from service.http import json_response, path_param
from service.params import Params
from service.routing import signed_in
from service.store import assets as asset_store
from service.store import dashboard as dashboard_store
from service.store import domain_guard
from service.store.assets import AssetFilter
from service.store.sessions import Session

PICK_LIMIT = 50
# Assets a view holds a page by default, and the most the page itself arrives with: a
# larger `limit` is fetched by the script once this first page is drawn, so a
# 10,000-asset view is interactive at the cost of 2,000 (traversal, details, HTML).
PAGE_NODES = 2_000


async def described(graph: Graph, view: LineageView) -> dict[str, Any]:
    """The view's document with `dataset` ({namespace, name} or null) on every node
    and `origins` on every edge."""
    details = await dashboard_store.lineage_details(
        graph, (n["id"] for n in view.nodes), ((e["source"], e["target"]) for e in view.edges)
    )
    datasets = {
        key: {"namespace": d.namespace, "name": d.name} for key, d in details.datasets.items()
    }
    return {
        **view.document(),
        "nodes": [{**n, "dataset": datasets.get(n["id"])} for n in view.nodes],
        "edges": [
            {**e, "origins": details.origins.get((e["source"], e["target"]), [])}
            for e in view.edges
        ],
    }


async def pick(request: Request, session: Session) -> Response:
    q = (request.query_params.get("q") or "").strip()[:256] or None
    rows = await asset_store.page(deps.graph(request), AssetFilter(q=q), "", PICK_LIMIT)
    context = {"title": "Lineage", "section": "lineage", "assets": rows, "q": q or ""}
    return html(request, "lineage_pick.html", context, session)


async def graph_page(request: Request, session: Session) -> Response:
    limits = deps.settings(request).limits
    params = Params(request)
    depth = params.integer("depth", limits.default_lineage_depth, 1, limits.max_lineage_depth)
    limit = params.integer(
        "limit", min(PAGE_NODES, limits.max_lineage_nodes), 1, limits.max_lineage_nodes
    )
    direction = params.choice("direction", lineage_api.DIRECTIONS, "both")
    moments = Moments.of(request)
    # A compared view is one answer, never paged: it arrives whole.
    first = limit if moments.compare else min(limit, PAGE_NODES)
    graph = deps.graph(request)
    asked = path_param(request, "asset_id")
    await domain_guard.require_readable(graph, session.principal, asked)
    root = await asset_store.get(graph, asked)
    try:
        walk = Walk(root.id, direction, depth, first, viewer=session.principal)
        view, when = await view_at(graph, walk, moments, deps.cursor_seal(request))
        document = {**await described(graph, view), **when}
    except NotFound as exc:  # the asset did not exist at that moment: the page says so
        empty = LineageView(root.id, direction, depth, [], [], False)
        document = {**empty.document(), **_asked(moments), "problem": exc.detail}
    context = {
        "title": f"Lineage of {root.name}",
        "section": "lineage",
        "asset": root,
        "view": document,
        "depth": depth,
        "direction": direction,
        "limit": limit,
        "columns": [c.name for c in root.columns],
    }
    return html(request, "lineage.html", context, session)


async def lineage_json(request: Request) -> Response:
    """The page's asset graph: the API's traversal, with the same parameters (`cursor`
    for the next page), described; as of a moment, or two moments compared
    (`lineage_time`)."""
    limits = deps.settings(request).limits
    params = Params(request)
    depth = params.integer("depth", limits.default_lineage_depth, 1, limits.max_lineage_depth)
    limit = params.integer("limit", limits.default_lineage_nodes, 1, limits.max_lineage_nodes)
    direction = params.choice("direction", lineage_api.DIRECTIONS, "both")
    moments = Moments.of(request)
    graph = deps.graph(request)
    cursor = params.text("cursor", lineage_api.MAX_CURSOR)
    viewer = request.state.session.principal
    walk = Walk(path_param(request, "asset_id"), direction, depth, limit, cursor, viewer)
    view, when = await view_at(graph, walk, moments, deps.cursor_seal(request))
    return json_response({**await described(graph, view), **when})


def _asked(moments: Moments) -> dict[str, Any]:
    """The moments of a view that could not be drawn, as the page's fields show them."""
    compare = moments.compare
    return {"as_of": moments.as_of, "compare": {"with": compare} if compare else None}


routes = [
    page_route(
        "/lineage", pick, methods=["GET"], name="lineage_pick", policy=signed_in(Scope.READ)
    ),
    page_route(
        "/lineage/{asset_id}",
        graph_page,
        methods=["GET"],
        name="lineage_page",
        policy=signed_in(Scope.READ),
    ),
    session_json_route(
        "/ui/assets/{asset_id}",
        assets_api.ASSETS.read_one,
        name="ui_asset",
        policy=signed_in(Scope.READ),
    ),
    session_json_route(
        "/ui/lineage/{asset_id}",
        lineage_json,
        name="ui_lineage",
        policy=signed_in(Scope.READ),
    ),
    session_json_route(
        "/ui/lineage/{asset_id}/columns/{column}/upstream",
        lineage_api.column_upstream,
        name="ui_column_upstream",
        policy=signed_in(Scope.READ),
    ),
    session_json_route(
        "/ui/lineage/{asset_id}/columns/{column}/downstream",
        lineage_api.column_downstream,
        name="ui_column_downstream",
        policy=signed_in(Scope.READ),
    ),
]
