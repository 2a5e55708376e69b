"""/ui/impact/manifest: the Ingest page's "Check impact", the change-impact check of the
chosen manifest before it is uploaded. It writes nothing.

The file is read as an upload would read it (`read_upload`, with the form's namespace)
and checked by `store.impact.check`, as `POST /api/v1/impact/manifest` does, walking as
deep as the service allows.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.uploads import inflation_budget, spooled_upload
from service.dashboard.session_json import session_json_route
from service.domain.access.scopes import Scope
from service.http import json_response
from service.models.datasets import MAX_DATASET_PART
from service.params import Params
from service.routing import Body, signed_in
from service.store import impact
from service.store.manifest_upload import ManifestUpload, read_upload


async def check_manifest(request: Request) -> Response:
    """The page posts the file part as the Ingest form would and the namespace in the
    query; the candidate's own column lineage is not derived (the stored one says who
    reads a column)."""
    settings = deps.settings(request)
    limits = settings.limits
    upload = ManifestUpload(
        actor=f"user:{request.state.session.user.id}",
        namespace=Params(request).text("namespace", MAX_DATASET_PART),
        column_lineage=False,
    )
    async with spooled_upload(request, "manifest", limits.max_manifest_bytes) as body:
        contents, namespace = await read_upload(body, upload, settings, inflation_budget(request))
    report = await impact.check(
        deps.graph(request),
        contents,
        namespace,
        limits.max_lineage_depth,
        viewer=deps.principal(request),
    )
    return json_response(report)


routes = [
    session_json_route(
        "/ui/impact/manifest",
        check_manifest,
        name="ui_check_manifest",
        policy=signed_in(Scope.WRITE, body=Body.MANIFEST),
        method="POST",
    ),
]
