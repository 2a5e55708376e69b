"""/ingest: upload a dbt manifest from the browser and see what it changed."""

from __future__ import annotations

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.manifest import namespace_for, read_contents
from service.api.uploads import parse_off_loop
from service.dashboard.render import html, page_route
from service.domain.access.scopes import Scope
from service.errors import validation_error
from service.routing import Body, signed_in
from service.store import manifest as manifest_store
from service.store.sessions import Session


async def form(request: Request, session: Session) -> Response:
    return html(
        request, "ingest.html", {"title": "Ingest", "section": "ingest", "summary": None}, session
    )


async def upload(request: Request, session: Session) -> Response:
    form_data = await request.form()
    sent = form_data.get("file")
    given = form_data.get("namespace")
    if not isinstance(sent, UploadFile) or not sent.filename:
        raise validation_error(("body", "file"), "choose a manifest.json file to upload", "missing")
    raw = await sent.read()
    limit = deps.settings(request).limits.max_manifest_bytes
    contents = await parse_off_loop(
        request, raw, False, read_contents, raw, limit, False, None, True
    )
    del raw
    summary = await manifest_store.ingest(
        deps.graph(request),
        contents,
        prune=True,
        actor=f"user:{session.user.id}",
        namespace=namespace_for(
            request, given.strip() or None if isinstance(given, str) else None, contents
        ),
    )
    context = {
        "title": "Ingest",
        "section": "ingest",
        "summary": summary,
        "filename": sent.filename,
    }
    return html(request, "ingest.html", context, session)


routes = [
    page_route("/ingest", form, methods=["GET"], name="ingest_page", policy=signed_in(Scope.WRITE)),
    page_route(
        "/ingest",
        upload,
        methods=["POST"],
        name="ingest",
        policy=signed_in(Scope.WRITE, body=Body.MANIFEST),
    ),
]
