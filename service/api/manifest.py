"""POST /api/v1/lineage/manifest: a dbt manifest.json becomes assets,
lineage and quality rules."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.uploads import inflation_budget, spooled_upload
from service.domain.access.scopes import Scope
from service.http import json_response
from service.models.datasets import MAX_DATASET_PART
from service.models.manifest import ManifestSummary
from service.openapi import Doc, Param
from service.params import Params
from service.routing import Body, Replay, Route, bearer
from service.store.manifest_upload import ManifestUpload, ingest_upload

PATH = "/api/v1/lineage/manifest"


async def upload_manifest(request: Request) -> Response:
    params = Params(request)
    upload = ManifestUpload(
        actor=deps.actor(request),
        project=params.text("project", 256),
        namespace=params.text("namespace", MAX_DATASET_PART),
        prune=params.flag("prune") is not False,
        column_lineage=params.flag("column_lineage") is not False,
        principal=deps.principal(request),
    )
    settings = deps.settings(request)
    limit = settings.limits.max_manifest_bytes
    async with spooled_upload(request, "manifest", limit) as body:
        summary = await ingest_upload(
            deps.graph(request), body, upload, settings, inflation_budget(request)
        )
    return json_response(summary)


routes = [
    Route(
        PATH,
        upload_manifest,
        methods=["POST"],
        name="upload_manifest",
        policy=bearer(Scope.WRITE, body=Body.MANIFEST, replay=Replay.KEPT, per_domain=True),
    )
]

MANIFEST_BODY = {
    "type": "object",
    "description": "a dbt manifest.json (dbt's own schema, v4 to v12)",
    "required": ["nodes"],
    "properties": {"nodes": {"type": "object"}},
}
PROJECT = Param(
    "project",
    schema={"type": "string", "maxLength": 256},
    description="default: the manifest's project name",
)
NAMESPACE = Param(
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
)

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
        body=MANIFEST_BODY,
        body_media_types=("application/json", "multipart/form-data"),
        params=(
            PROJECT,
            Param(
                "column_lineage",
                schema={"type": "boolean", "default": True},
                description="derive column lineage from compiled SQL (sqlglot; ~10-20 ms of CPU "
                "per model); false skips it",
            ),
            NAMESPACE,
            Param("prune", schema={"type": "boolean", "default": True}),
        ),
        responses={200: ManifestSummary},
        errors=(409, 413, 415, 422),
    ),
}
