"""/assets/{id}/history: the asset page's History tab, its versions newest first with
what each changed, a page at a time (`store.asset_versions.history`, as the API's
`GET /api/v1/assets/{id}/history` reads them).

Each change is put in words here (`ChangeLine`), so the template only lays them out.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from service.api import deps
from service.dashboard.render import html, page_route
from service.domain import asset_history_export
from service.domain.access.scopes import Scope
from service.domain.cursor import decode_cursor, encode_cursor
from service.errors import BadRequest, FieldError, NotFound, Unprocessable
from service.graph import Graph
from service.http import path_param
from service.models.asset_history import AssetChange, AssetVersion
from service.models.assets import Asset
from service.routing import signed_in
from service.store import actors, asset_versions
from service.store import assets as asset_store
from service.store.sessions import Session

PAGE_SIZE = 20
EXPORT_PAGE = 500
EXPORT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


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
    who = await actors.labels(graph, {v.actor for v in shown_versions})
    context = {
        "title": f"History of {asset.name if asset else asked}",
        "who": who,
        "section": "assets",
        "asset": asset,
        "asset_id": asset.id if asset else asked,
        "rows": [row(v, not more and v is shown_versions[-1]) for v in shown_versions],
        "next_cursor": encode_cursor({"before": shown_versions[-1].version}) if more else None,
        "first_page": cursor is None,
    }
    return html(request, "asset_history.html", context, session)


async def export_history(request: Request, session: Session) -> Response:
    """Every version kept, as `format=csv` (the default) or `json`, a page of
    versions per read while the file streams: a long trail never sits in memory. The
    first page is read before the answer starts, so an unknown asset is a 404."""
    fmt = request.query_params.get("format", "csv")
    if fmt not in EXPORT_TYPES:
        raise Unprocessable(
            "format must be csv or json.",
            code="validation_error",
            errors=[FieldError(("query", "format"), "must be csv or json", "enum")],
        )
    graph = deps.graph(request)
    asset_id = path_param(request, "asset_id")
    first = await asset_versions.history(graph, asset_id, 0, EXPORT_PAGE + 1)

    async def pages() -> AsyncIterator[list[AssetVersion]]:
        page = first
        while page:
            yield page[:EXPORT_PAGE]
            if len(page) <= EXPORT_PAGE:
                return
            before = page[EXPORT_PAGE - 1].version
            page = await asset_versions.history(graph, asset_id, before, EXPORT_PAGE + 1)

    body = _csv_body(graph, pages()) if fmt == "csv" else _json_body(graph, asset_id, pages())
    filename = _filename(asset_id, fmt)
    return StreamingResponse(
        body,
        media_type=EXPORT_TYPES[fmt],
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


async def _csv_body(graph: Graph, pages: AsyncIterator[list[AssetVersion]]) -> AsyncIterator[str]:
    yield asset_history_export.csv_header()
    async for page in pages:
        who = await actors.labels(graph, {v.actor for v in page})
        yield asset_history_export.csv_rows(page, who)


async def _json_body(
    graph: Graph, asset_id: str, pages: AsyncIterator[list[AssetVersion]]
) -> AsyncIterator[bytes]:
    yield b'{"asset":' + orjson.dumps(asset_id) + b',"versions":['
    separator = b""
    async for page in pages:
        who = await actors.labels(graph, {v.actor for v in page})
        for text in asset_history_export.json_versions(page, who):
            yield separator + text
            separator = b","
    yield b"]}"


def _filename(asset_id: str, fmt: str) -> str:
    """`history-<id>.<fmt>` with anything but letters, digits, `.`, `-` and `_` as `_`,
    so no id can end the header's quoted string."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._-") else "_" for ch in asset_id)
    return f"history-{safe[:100]}.{fmt}"


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
        "/assets/{asset_id}/history/export",
        export_history,
        methods=["GET"],
        name="asset_history_export",
        policy=signed_in(Scope.READ),
    ),
    page_route(
        "/assets/{asset_id}/history",
        history_page,
        methods=["GET"],
        name="asset_history_page",
        policy=signed_in(Scope.READ),
    ),
]
