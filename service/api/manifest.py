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
from service.domain.datasets import DatasetNameError
from service.domain.dbt.identity import upload_namespace
from service.domain.dbt.slim import Unstreamable, slim_manifest
from service.domain.dbt_manifest import ManifestContents, ManifestError, read_manifest
from service.domain.decompress import GZIP_MAGIC, Corrupt, Gunzipping, TooLarge
from service.errors import FieldError, PayloadTooLarge, Unavailable, Unprocessable, validation_error
from service.http import json_response
from service.models.datasets import MAX_DATASET_PART
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
    namespace = params.text("namespace", MAX_DATASET_PART)
    prune = params.flag("prune")
    limit = deps.settings(request).limits.max_manifest_bytes
    columns = params.flag("column_lineage") is not False
    async with spooled_upload(request, "manifest") as (body, gzipped):
        contents = await parse_off_loop(
            request, b"", gzipped, read_contents, body, limit, gzipped, project, columns
        )
    summary = await store.ingest(
        deps.graph(request),
        contents,
        prune=prune is not False,
        actor=deps.actor(request),
        namespace=namespace_for(request, namespace, contents),
    )
    return json_response(summary)


def namespace_for(request: Request, given: str | None, contents: ManifestContents) -> str | None:
    """The upload's `namespace`, else the one configured for its adapter: 422 when the
    given one is no namespace; a configured one that is none is a setting to fix (503)."""
    if given is not None:
        try:
            return upload_namespace(given, None, ())
        except DatasetNameError as exc:
            raise validation_error(("query", "namespace"), str(exc), "invalid_dataset") from exc
    configured = deps.settings(request).dataset_namespaces
    try:
        return upload_namespace(None, contents.adapter, configured)
    except DatasetNameError as exc:
        raise Unavailable(
            f"GOVERNANCE_DATASET_NAMESPACES holds no valid namespace for {contents.adapter}: {exc}",
            code="misconfigured",
        ) from exc


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
            Param(
                "namespace",
                schema={"type": "string", "maxLength": MAX_DATASET_PART},
                description="where the project's tables live, as OpenLineage names it (e.g. "
                "`snowflake://acme-prod`): every model, seed, snapshot and source then holds the "
                "dataset `(namespace, database.schema.identifier)` under the adapter's case rule, "
                "so OpenLineage events, SQL and edges naming that table meet the dbt node. "
                "Default: the namespace configured for the manifest's adapter "
                "(GOVERNANCE_DATASET_NAMESPACES), else none. A placeholder or another project's "
                "source holding a dataset is merged into the model; a source whose table another "
                "asset holds becomes that asset's alias; a model claiming a dataset another "
                "model or an API asset holds is 409 `dataset_taken`, nothing written.",
            ),
            Param("prune", schema={"type": "boolean", "default": True}),
        ),
        responses={200: ManifestSummary},
        errors=(409, 413, 415, 422),
    ),
}
