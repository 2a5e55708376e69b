"""/assets (search and filters, a dataset's holder among them) and /assets/{id} (one
asset, its dataset and former ids, its rules and violations, and a form editing its
description and tags for users whose role in the asset's domain allows it)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service.api import deps
from service.dashboard.guard import Refused
from service.dashboard.lineage import described
from service.dashboard.present import segment
from service.dashboard.render import html, page_route
from service.domain import datasets
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.domain.cursor import decode_cursor, encode_cursor
from service.domain.preconditions import Expected
from service.errors import DomainForbidden, PreconditionFailed
from service.http import path_param
from service.models.assets import KNOWN_TYPES
from service.models.datasets import MAX_DATASET_PART
from service.routing import signed_in
from service.store import assets as asset_store
from service.store import column_tags, domain_guard
from service.store import dashboard as dashboard_store
from service.store import lineage as lineage_store
from service.store import quality as quality_store
from service.store.assets import AssetFilter
from service.store.sessions import Session

PAGE_SIZE = 50
COMPACT_NODES = 200
FILTERS = ("q", "type", "platform", "tag", "owner", "dataset_namespace", "dataset_name")


class BadFilter(ValueError):
    """A filter that names nothing; its message is shown above the list."""


def _filter(request: Request) -> AssetFilter:
    query = request.query_params
    value = {name: (query.get(name) or "").strip()[:256] or None for name in FILTERS}
    dataset_namespace, dataset_key = _dataset_filter(
        query.get("dataset_namespace"), query.get("dataset_name")
    )
    return AssetFilter(
        type=value["type"],
        platform=value["platform"],
        owner=value["owner"],
        tags=(value["tag"],) if value["tag"] else (),
        q=value["q"],
        dataset_namespace=dataset_namespace,
        dataset_key=dataset_key,
        readable=domain_rules.readable_private(request.state.session.principal),
    )


def _dataset_filter(namespace: str | None, name: str | None) -> tuple[str | None, str | None]:
    """(namespace, dataset key), as the API reads them: a namespace lists its datasets'
    holders, with a name the one holder; both normalised as stored, so any spelling of
    the dataset finds it."""
    namespace, name = (namespace or "").strip() or None, (name or "").strip() or None
    if name is not None and namespace is None:
        raise BadFilter("A dataset name needs its dataset namespace (e.g. snowflake://acme-prod).")
    if namespace is None:
        return None, None
    if max(len(namespace), len(name or "")) > MAX_DATASET_PART:
        raise BadFilter(f"A dataset namespace or name is at most {MAX_DATASET_PART} characters.")
    try:
        ref = datasets.normalise(namespace, name or "_")
    except datasets.DatasetNameError as exc:
        raise BadFilter(f"Dataset {exc.field}: {exc}.") from exc
    return (None, ref.key) if name else (ref.namespace, None)


async def search(request: Request, session: Session) -> Response:
    query = {k: v for k, v in request.query_params.items() if k in FILTERS and v}
    context: dict[str, Any] = {
        "title": "Assets",
        "section": "assets",
        "query": query,
        "types": KNOWN_TYPES,
    }
    try:
        where = _filter(request)
    except BadFilter as exc:
        context |= {"error": str(exc), "assets": [], "next_cursor": None, "first_page": True}
        return html(request, "assets.html", context, session, status=422)
    cursor = request.query_params.get("cursor")
    after = decode_cursor(cursor, ["after"])["after"] if cursor else ""
    rows = await asset_store.page(deps.graph(request), where, str(after), PAGE_SIZE + 1)
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    context |= {
        "error": None,
        "assets": rows,
        "next_cursor": encode_cursor({"after": rows[-1].id}) if more else None,
        "first_page": cursor is None,
    }
    return html(request, "assets.html", context, session)


async def asset_page(request: Request, session: Session) -> Response:
    graph = deps.graph(request)
    asked = path_param(request, "asset_id")
    await domain_guard.require_readable(graph, session.principal, asked)
    asset = await asset_store.get(graph, asked)
    view = await lineage_store.traverse(
        graph, asset.id, "both", 1, COMPACT_NODES, viewer=session.principal
    )
    readable = domain_rules.readable_private(session.principal)
    context = {
        "title": asset.name,
        "section": "assets",
        "asset": asset,
        "former_id": asked if asked != asset.id else None,
        "rules": await quality_store.page(graph, asset.id, None, None, "", 200),
        "violations": await dashboard_store.open_violations(graph, asset.id, 100, readable),
        "view": await described(graph, view),
        "columns": (await column_tags.listing(graph, asset, session.principal)).columns,
        "described": {c.name: c.description for c in asset.columns},
        "can_edit": domain_rules.can_write(session.principal, asset.domain),
        "saved": request.query_params.get("saved") == "1",
    }
    return html(request, "asset.html", context, session)


async def edit_asset(request: Request, session: Session) -> Response:
    """The asset page's form: its description and tags (comma-separated), written as a
    merge patch of the fields the form holds (a field it lacks is left as it is), on
    the version the page was rendered from (`version`, as If-Match: a change made since
    is a 412 saying so, nothing written). Only where the user's role in the asset's
    domain allows editing (outside every domain, their global role), and only into a
    domain where it does: otherwise 403 saying why, nothing written. A private
    domain's asset the user may not read is absent (404)."""
    graph = deps.graph(request)
    asked = path_param(request, "asset_id")
    await domain_guard.require_readable(graph, session.principal, asked)
    asset = await asset_store.get(graph, asked)
    if not domain_rules.can_write(session.principal, asset.domain):
        raise Refused(403, _not_editable(asset.id, asset.domain, session.user.role))
    form = await request.form()
    document = _edited(form.get("description"), form.get("tags"))
    expected = _rendered_version(form.get("version"))
    try:
        await domain_guard.require_placeable(graph, session.principal, asset.id, document)
    except DomainForbidden as exc:
        raise Refused(403, _not_movable(asset.id, exc.extra["assets"][0]["domain"])) from exc
    try:
        await asset_store.patch(graph, asset.id, document, expected, f"user:{session.user.id}")
    except PreconditionFailed as exc:
        onward = (f"/assets/{segment(asset.id)}", "Open the asset as it is now")
        raise Refused(412, _changed_meanwhile(asset.id), onward) from exc
    return RedirectResponse(f"/assets/{segment(asset.id)}?saved=1", status_code=303)


def _edited(description: object, tags: object) -> dict[str, Any]:
    """The merge patch of the fields the form posted: an empty description clears it."""
    document: dict[str, Any] = {}
    if isinstance(description, str):
        document["description"] = description.strip() or None
    if isinstance(tags, str):
        document["tags"] = [t.strip() for t in tags.split(",") if t.strip()]
    return document


def _rendered_version(posted: object) -> Expected | None:
    """The version the form was rendered from, as If-Match would name it (None: a form
    without one, written as the API writes without If-Match)."""
    if posted is None:
        return None
    if not isinstance(posted, str) or not posted.isascii() or not posted.isdigit():
        raise Refused(400, "The form's version is not a number: reload the page and edit again.")
    return Expected(versions=frozenset({int(posted)}))


def _changed_meanwhile(asset_id: str) -> str:
    return (
        f"Someone else changed {asset_id} after you opened this page, so your edit was not "
        "saved (it would have undone theirs). Open the asset again to see their change, then "
        "edit again."
    )


def _not_movable(asset_id: str, domain: str | None) -> str:
    where = f"into the domain {domain}" if domain else "somewhere"
    return (
        f"You may not save these tags on {asset_id}: they would move it {where} where your "
        "role does not allow editing. Nothing was saved."
    )


def _not_editable(asset_id: str, domain: str | None, role: str) -> str:
    if domain is None:
        return (
            f"You may not edit {asset_id}: it lies outside every domain, where your global "
            f"role ({role}) does not allow editing."
        )
    return (
        f"You may not edit {asset_id}: it lies in the domain {domain}, where your role does "
        "not allow editing. Ask an admin of that domain for the editor role."
    )


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
    page_route(
        "/assets/{asset_id}/edit",
        edit_asset,
        methods=["POST"],
        name="edit_asset_page",
        policy=signed_in(Scope.WRITE, per_domain=True),
    ),
]
