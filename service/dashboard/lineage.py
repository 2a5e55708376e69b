"""/lineage (pick an asset) and /lineage/{id} (the interactive graph), plus the
session-authenticated JSON the page's script reads under /ui/lineage.

The JSON endpoints are the API's own handlers behind the session check, so the
page and `/api/v1/lineage` can never disagree about a graph.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import assets as assets_api
from service.api import deps
from service.api import lineage as lineage_api
from service.dashboard.render import html, page_route
from service.dashboard.session_json import session_json_route
from service.domain.access.scopes import Scope
from service.http import path_param
from service.params import Params
from service.routing import signed_in
from service.store import assets as asset_store
from service.store import lineage as lineage_store
from service.store.assets import AssetFilter
from service.store.sessions import Session

PICK_LIMIT = 50
PAGE_NODES = 2_000


async def pick(request: Request, session: Session) -> Response:
    q = (request.query_params.get("q") or "").strip()[:256] or None
    rows = await asset_store.page(deps.graph(request), AssetFilter(q=q), "", PICK_LIMIT)
    context = {"title": "Lineage", "section": "lineage", "assets": rows, "q": q or ""}
    return html(request, "lineage_pick.html", context, session)


async def graph_page(request: Request, session: Session) -> Response:
    limits = deps.settings(request).limits
    params = Params(request)
    depth = params.integer("depth", limits.default_lineage_depth, 1, limits.max_lineage_depth)
    direction = params.choice("direction", lineage_api.DIRECTIONS, "both")
    graph = deps.graph(request)
    root = await asset_store.get(graph, path_param(request, "asset_id"))
    view = await lineage_store.traverse(graph, root.id, direction, depth, PAGE_NODES)
    context = {
        "title": f"Lineage of {root.name}",
        "section": "lineage",
        "asset": root,
        "view": view,
        "depth": depth,
        "direction": direction,
        "columns": [c.name for c in root.columns],
    }
    return html(request, "lineage.html", context, session)


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
        "/ui/assets/{asset_id}", assets_api.get_asset, name="ui_asset", policy=signed_in(Scope.READ)
    ),
    session_json_route(
        "/ui/lineage/{asset_id}",
        lineage_api.lineage,
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
