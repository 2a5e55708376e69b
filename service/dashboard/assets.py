"""/assets (search and filters) and /assets/{id} (one asset, its rules and violations)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.dashboard.render import html, page_route
from service.domain.access.scopes import Scope
from service.domain.cursor import decode_cursor, encode_cursor
from service.http import path_param
from service.models.assets import KNOWN_TYPES
from service.routing import signed_in
from service.store import assets as asset_store
from service.store import dashboard as dashboard_store
from service.store import lineage as lineage_store
from service.store import quality as quality_store
from service.store.assets import AssetFilter
from service.store.sessions import Session

PAGE_SIZE = 50
COMPACT_NODES = 200
FILTERS = ("q", "type", "platform", "tag", "owner")


def _filter(request: Request) -> AssetFilter:
    query = request.query_params
    value = {name: (query.get(name) or "").strip()[:256] or None for name in FILTERS}
    return AssetFilter(
        type=value["type"],
        platform=value["platform"],
        owner=value["owner"],
        tags=(value["tag"],) if value["tag"] else (),
        q=value["q"],
    )


async def search(request: Request, session: Session) -> Response:
    cursor = request.query_params.get("cursor")
    after = decode_cursor(cursor, ["after"])["after"] if cursor else ""
    rows = await asset_store.page(deps.graph(request), _filter(request), str(after), PAGE_SIZE + 1)
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    query = {k: v for k, v in request.query_params.items() if k in FILTERS and v}
    context = {
        "title": "Assets",
        "section": "assets",
        "assets": rows,
        "query": query,
        "types": KNOWN_TYPES,
        "next_cursor": encode_cursor({"after": rows[-1].id}) if more else None,
        "first_page": cursor is None,
    }
    return html(request, "assets.html", context, session)


async def asset_page(request: Request, session: Session) -> Response:
    graph = deps.graph(request)
    asset = await asset_store.get(graph, path_param(request, "asset_id"))
    context = {
        "title": asset.name,
        "section": "assets",
        "asset": asset,
        "rules": await quality_store.page(graph, asset.id, None, None, "", 200),
        "violations": await dashboard_store.open_violations(graph, asset.id, 100),
        "view": await lineage_store.traverse(graph, asset.id, "both", 1, COMPACT_NODES),
    }
    return html(request, "asset.html", context, session)


routes = [
    page_route(
        "/assets", search, methods=["GET"], name="assets_page", policy=signed_in(Scope.READ)
    ),
    page_route(
        "/assets/{asset_id}",
        asset_page,
        methods=["GET"],
        name="asset_page",
        policy=signed_in(Scope.READ),
    ),
]
