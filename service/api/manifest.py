"""POST /api/v1/lineage/manifest: a dbt manifest.json becomes assets,
lineage and quality rules."""

from __future__ import annotations

import io
from typing import IO, Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.uploads import parse_off_loop, parse_upload, spooled_upload
from service.domain.access.scopes import Scope
from service.domain.dbt.slim import Unstreamable, slim_manifest
from service.domain.dbt_manifest import ManifestContents, ManifestError, read_manifest
from service.domain.decompress import GZIP_MAGIC, Corrupt, Gunzipping, TooLarge
from service.errors import FieldError, PayloadTooLarge, Unprocessable
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
    body: bytes | IO[bytes], limit: int, gzipped: bool, project: str | None, columns: bool
) -> ManifestContents:
    """CPU-bound: runs in a worker thread so the event loop keeps serving."""
    if isinstance(body, bytes):
        gzipped = gzipped or body[:2] == GZIP_MAGIC
        body = io.BytesIO(body)
    document = read_document(body, limit, gzipped)
    try:
        return read_manifest(document, project, column_lineage=columns)
    except ManifestError as exc:
        raise invalid(exc.msg, exc.loc) from exc


def read_document(body: IO[bytes], limit: int, gzipped: bool) -> Any:
    """The manifest without what `read_manifest` never reads, parsed as the body streams
    (inflating gzip as it goes, up to `limit`), so memory follows what is kept rather
    than the size of the body. A body the streaming parser refuses is parsed whole,
    which decides the answer (the error, or the document) exactly as before."""
    body.seek(0)
    try:
        return slim_manifest(Gunzipping(body, limit) if gzipped else body)
    except TooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except Corrupt as exc:
        raise invalid(str(exc)) from exc
    except Unstreamable:
        body.seek(0)
        return parse_upload(body.read(), limit, gzipped, invalid)


async def upload_manifest(request: Request) -> Response:
    params = Params(request)
    project = params.text("project", 256)
    prune = params.flag("prune")
    limit = deps.settings(request).limits.max_manifest_bytes
    columns = params.flag("column_lineage") is not False
    async with spooled_upload(request, "manifest") as (body, gzipped):
        contents = await parse_off_loop(
            request, b"", gzipped, read_contents, body, limit, gzipped, project, columns
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
        body={
            "type": "object",
            "description": "a dbt manifest.json (dbt's own schema, v4 to v12)",
            "required": ["nodes"],
            "properties": {"nodes": {"type": "object"}},
        },
        body_media_types=("application/json", "multipart/form-data"),
        params=(
            Param(
                "project",
                schema={"type": "string", "maxLength": 256},
                description="default: the manifest's project name",
            ),
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
