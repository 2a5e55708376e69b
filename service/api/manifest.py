"""POST /api/v1/lineage/manifest: a dbt manifest.json becomes assets,
lineage and quality rules."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.uploads import parse_off_loop, parse_upload, read_upload
from service.domain.access.scopes import Scope
from service.domain.dbt_manifest import ManifestContents, ManifestError, read_manifest
from service.errors import FieldError, Unprocessable
from service.http import json_response
from service.models.manifest import ManifestSummary
from service.openapi import Doc, Param
from service.params import Params
from service.routing import Body, Replay, Route, bearer
from service.store import manifest as store

PATH = "/api/v1/lineage/manifest"


def invalid(msg: str, loc: tuple[str | int, ...] = ()) -> Unprocessable:
    return Unprocessable(
        f"Not a dbt manifest this service can read: {msg}",
        code="invalid_manifest",
        errors=[FieldError(("body", *loc), msg, "invalid_manifest")],
    )


def read_contents(
    raw: bytes, limit: int, gzipped: bool, project: str | None, columns: bool
) -> ManifestContents:
    """CPU-bound: runs in a worker thread so the event loop keeps serving."""
    document = parse_upload(raw, limit, gzipped, invalid)
    del raw
    try:
        return read_manifest(document, project, column_lineage=columns)
    except ManifestError as exc:
        raise invalid(exc.msg, exc.loc) from exc


async def upload_manifest(request: Request) -> Response:
    params = Params(request)
    project = params.text("project", 256)
    prune = params.flag("prune")
    limit = deps.settings(request).limits.max_manifest_bytes
    raw, gzipped = await read_upload(request, "manifest")
    columns = params.flag("column_lineage") is not False
    contents = await parse_off_loop(
        request, raw, gzipped, read_contents, raw, limit, gzipped, project, columns
    )
    summary = await store.ingest(
        deps.graph(request), contents, prune=prune is not False, actor=deps.actor(request)
    )
    return json_response(summary)


routes = [
    Route(
        PATH,
        upload_manifest,
        methods=["POST"],
        name="upload_manifest",
        policy=bearer(Scope.WRITE, body=Body.MANIFEST, replay=Replay.KEPT),
    )
]

docs = {
    "upload_manifest": Doc(
        "Ingest a dbt manifest.json",
        "lineage",
        description="Models, seeds, snapshots, sources, exposures and analyses become assets "
        "(id = dbt unique_id); dependencies become edges with origin `dbt:<project>` and the "
        "compiled (else raw) SQL as transformation; data tests become quality rules. With "
        "`prune` (default), edges and rules an earlier upload of the project made and this one "
        "lacks are removed (an edge another writer asserts stays). The same manifest twice "
        "changes nothing. Raw JSON (optionally gzip: Content-Encoding or the gzip magic "
        "bytes) or multipart/form-data field `file`; at most 256 MiB after decompression.",
        body={"type": "object", "description": "a dbt manifest.json (schema v4 to v12)"},
        body_media_types=("application/json", "multipart/form-data"),
        params=(
            Param("project", description="default: the manifest's project name"),
            Param(
                "column_lineage",
                schema={"type": "boolean", "default": True},
                description="derive column lineage from compiled SQL (sqlglot; ~10-20 ms of CPU "
                "per model); false skips it",
            ),
            Param("prune", schema={"type": "boolean", "default": True}),
        ),
        responses={200: ManifestSummary},
        errors=(413, 415, 422),
    ),
}
