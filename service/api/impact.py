"""POST /api/v1/impact/manifest: what a candidate dbt manifest would change, and who
reads it downstream, before it is merged. Writes nothing."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.manifest import MANIFEST_BODY, PROJECT
from service.api.uploads import inflation_budget, spooled_upload
from service.domain.access.scopes import Scope
from service.http import json_response
from service.models.datasets import MAX_DATASET_PART
from service.models.impact import ImpactReport
from service.openapi import Doc, Param, configured_integer
from service.params import Params
from service.routing import Body, Replay, Route, bearer
from service.store import impact
from service.store.manifest_upload import ManifestUpload, read_upload

PATH = "/api/v1/impact/manifest"


async def check_manifest(request: Request) -> Response:
    params = Params(request)
    settings = deps.settings(request)
    limits = settings.limits
    depth = params.integer("depth", limits.max_lineage_depth, 1, limits.max_lineage_depth)
    upload = ManifestUpload(
        actor=deps.actor(request),
        project=params.text("project", 256),
        namespace=params.text("namespace", MAX_DATASET_PART),
        # The candidate's own column lineage plays no part: it is the stored one that
        # says who reads a column. Skipping it keeps a 5,000-model check in seconds.
        column_lineage=False,
    )
    async with spooled_upload(request, "manifest", limits.max_manifest_bytes) as body:
        contents, namespace = await read_upload(body, upload, settings, inflation_budget(request))
    report = await impact.check(
        deps.graph(request), contents, namespace, depth, viewer=deps.principal(request)
    )
    return json_response(report)


routes = [
    Route(
        PATH,
        check_manifest,
        methods=["POST"],
        name="check_manifest",
        policy=bearer(Scope.READ, body=Body.MANIFEST, replay=Replay.READ_ONLY),
    )
]

docs = {
    "check_manifest": Doc(
        "Change impact of a candidate dbt manifest",
        "lineage",
        description="Compares a candidate manifest (a pull request's `target/manifest.json`) "
        "with the project as its uploads left it and writes nothing: no asset, edge, rule or "
        "event. The stored project is every node an upload of `project` wrote that an edge "
        "or a test of its latest upload still names, and its tests. `changes` lists what "
        "the candidate removes, adds or alters; removals of what others read, retyped "
        "columns, renamed relations and a model made ephemeral are breaking. `impacted` "
        "lists every asset downstream of a breaking change, whoever wrote it (OpenLineage "
        "jobs, BI tools, the API, other dbt projects), up to `depth` hops: where column "
        "lineage exists, only the columns derived from a changed column (and the assets "
        "reading its asset with no column lineage at all, as whole assets); otherwise the "
        "whole asset. Each once, at its fewest hops, with its owners and its path (`via`); "
        "the walk reads one level of neighbours per statement, so it costs what it reaches. "
        "A test removed is breaking and impacts the readers of what it tested. An asset the "
        "caller may not read (a private domain where they hold no role), changed, impacted or "
        "on a path, is a stand-in as in a traversal: `redacted:<n>` (one per asset in the "
        "report) with the owning `team` instead of its owners, a column of it `redacted:<m>` "
        "(a column's name would tell its schema), a change's `from` and `to` null; every "
        "change and impacted node is still listed, after the readable ones, and `redacted` "
        "counts the stand-in assets. A project "
        "with no stored upload is 404 `unknown_project` (upload the main branch's manifest "
        "first, or name the project it was uploaded as), so that a misspelt project fails "
        "the check instead of passing it. Needs scope `read`. The same bodies as the upload: "
        "raw JSON (optionally gzip) or multipart/form-data field `file`.",
        body=MANIFEST_BODY,
        body_media_types=("application/json", "multipart/form-data"),
        params=(
            PROJECT,
            Param(
                "namespace",
                schema={"type": "string", "maxLength": MAX_DATASET_PART},
                description="where the project's tables live, as for the upload: the "
                "candidate's nodes are then named as its upload would name them (a source "
                "whose table another asset holds is that asset). Default: the namespace "
                "configured for the manifest's adapter, else none.",
            ),
            Param(
                "depth",
                schema=configured_integer("max_lineage_depth", "max_lineage_depth"),
                description="how many hops downstream to walk (default and maximum: "
                "GOVERNANCE_MAX_LINEAGE_DEPTH)",
            ),
        ),
        responses={200: ImpactReport},
        errors=(404, 413, 415, 422),
    ),
}
