"""/assets/{id}/history: the asset page's History tab, its versions newest first with
what each changed, a page at a time (`store.asset_versions.history`, as the API's
`GET /api/v1/assets/{id}/history` reads them).

Each change is put in words here (`ChangeLine`), so the template only lays them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.dashboard.render import html, page_route
from service.domain.access.scopes import Scope
from service.domain.cursor import decode_cursor, encode_cursor
from service.errors import BadRequest, NotFound
from service.graph import Graph
from service.http import path_param
from service.models.asset_history import AssetChange, AssetVersion
from service.models.assets import Asset
from service.routing import signed_in
from service.store import asset_versions
from service.store import assets as asset_store
from service.store.sessions import Session

PAGE_SIZE = 20


@dataclass(frozen=True)
class ChangeLine:
    """One change as the tab says it: `what` changed (`kind`: set, added, removed,
    retyped, changed), from `before` to `after` (None: nothing to show)."""

    what: str
    kind: str
    before: str | None
    after: str | None


def shown(value: Any) -> str:
    """A field's value in a few words: lists joined, a dataset as namespace and name,
    yes/no for flags, an em dash for none."""
    if value is None or value == []:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict) and set(value) == {"namespace", "name"}:
        return f"{value['namespace']} {value['name']}"
    return str(value)


def _column_detail(column: dict[str, Any] | None) -> str | None:
    """What a column was or became besides its type: description and tags."""
    if not column:
        return None
    parts = [str(column.get("description") or "—")]
    if column.get("tags"):
        parts.append("tags " + ", ".join(column["tags"]))
    return "; ".join(parts)


def line(change: AssetChange) -> ChangeLine:
    if change.field != "columns":
        return ChangeLine(change.field, "set", shown(change.from_), shown(change.to))
    what = f"column {change.column}"
    before: dict[str, Any] | None = change.from_
    after: dict[str, Any] | None = change.to
    if change.change == "added":
        return ChangeLine(what, "added", None, (after or {}).get("type"))
    if change.change == "removed":
        return ChangeLine(what, "removed", (before or {}).get("type"), None)
    if change.change == "retyped":
        return ChangeLine(
            what, "retyped", shown((before or {}).get("type")), shown((after or {}).get("type"))
        )
    return ChangeLine(what, "changed", _column_detail(before), _column_detail(after))


@dataclass(frozen=True)
class VersionRow:
    """A version and its changes in words; `first` when it is the oldest kept, compared
    with nothing: its fields are what the asset was created with, no change from."""

    version: AssetVersion
    lines: list[ChangeLine]
    first: bool = False


def row(version: AssetVersion, first: bool) -> VersionRow:
    lines = [line(c) for c in version.changes]
    if first:
        lines = [
            ChangeLine(c.what, c.kind, None, c.after)
            for c in lines
            if c.kind != "set" or c.after not in ("—", "no")
        ]
    return VersionRow(version, lines, first)


async def history_page(request: Request, session: Session) -> Response:
    graph = deps.graph(request)
    asked = path_param(request, "asset_id")
    cursor = request.query_params.get("cursor")
    before = _before(cursor) if cursor else 0
    versions = await asset_versions.history(graph, asked, before, PAGE_SIZE + 1)
    asset = await _current(graph, asked)
    shown_versions = versions[:PAGE_SIZE]
    more = len(versions) > PAGE_SIZE
    context = {
        "title": f"History of {asset.name if asset else asked}",
        "section": "assets",
        "asset": asset,
        "asset_id": asset.id if asset else asked,
        "rows": [row(v, not more and v is shown_versions[-1]) for v in shown_versions],
        "next_cursor": encode_cursor({"before": shown_versions[-1].version}) if more else None,
        "first_page": cursor is None,
    }
    return html(request, "asset_history.html", context, session)


def _before(cursor: str) -> int:
    """The version a page's cursor says the next page is older than."""
    before = decode_cursor(cursor, ["before"])["before"]
    if not isinstance(before, int) or isinstance(before, bool) or before < 1:
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor")
    return before


async def _current(graph: Graph, asset_id: str) -> Asset | None:
    """The asset as it is now; None once deleted (its history stays readable)."""
    try:
        return await asset_store.get(graph, asset_id)
    except NotFound:
        return None


routes = [
    page_route(
        "/assets/{asset_id}/history",
        history_page,
        methods=["GET"],
        name="asset_history_page",
        policy=signed_in(Scope.READ),
    ),
]
