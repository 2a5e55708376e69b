"""POST /api/v1/lineage/openlineage: OpenLineage RunEvents become runs,
lineage, column lineage and columns. `POST /lineage` hands RunEvents here too."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain.access.scopes import Scope
from service.domain.openlineage import Plan, parse_events, plan_events
from service.http import json_response, read_json
from service.models.openlineage import OpenLineageResult, RunEvents
from service.openapi import Doc
from service.routing import Replay, Route, bearer
from service.store import domain_guard
from service.store import openlineage as store

PATH = "/api/v1/lineage/openlineage"
# A body with any of these is a RunEvent, never an edge (an edge allows no other keys).
RUN_EVENT_KEYS = ("eventType", "run", "job")


def is_run_event(body: Any) -> bool:
    return isinstance(body, dict) and any(key in body for key in RUN_EVENT_KEYS)


async def ingest(request: Request, body: Any) -> Response:
    """Validate everything (422, nothing written), then write it in one transaction."""
    limits = deps.settings(request).limits
    events = parse_events(body, limits.max_bulk_edges)
    plan = plan_events(events, limits.max_bulk_edges)
    await _require_writable(request, plan)
    result = await store.ingest(
        deps.graph(request), plan, deps.actor(request), timeout_s=limits.ingest_timeout_s
    )
    return json_response(result)


async def _require_writable(request: Request, plan: Plan) -> None:
    """403 `domain_forbidden` unless the caller may write every asset the events write
    (edge targets, schema facets) and read every edge source."""
    rows = [
        row for by_origin in (plan.edges, plan.columns) for v in by_origin.values() for row in v
    ]
    await domain_guard.require_rows_writable(
        deps.graph(request),
        deps.principal(request),
        plan.datasets,
        rows,
        rewritten=[row["id"] for row in plan.schemas],
        dataset_ids=plan.dataset_ids,
    )


async def post_events(request: Request) -> Response:
    return await ingest(request, await read_json(request))


routes = [
    Route(
        PATH,
        post_events,
        methods=["POST"],
        name="post_openlineage",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    )
]

MAPPING = (
    "Each input -> output dataset pair of a COMPLETE event becomes an edge with origin "
    "`openlineage:<job namespace>/<job name>`; each dataset (and each column-lineage input "
    "field's dataset) resolves to the asset holding it, named by the platform's naming rules "
    "(Snowflake upper-cases unquoted names, Postgres lower-cases them, ...), so a dbt model "
    "or an API asset holding the table is the edge's end; a dataset nobody holds becomes a "
    "placeholder asset `<namespace>/<name>` holding it (or the id a `symlinks` facet names "
    "in the namespace `governance:asset`); a dataset of the namespace `governance:asset` is "
    "the asset whose id is its name (a placeholder with that id when none); the `sql` job "
    "facet is the transformation; an output's "
    "`columnLineage` facet gives column mappings (an input field's transformations become "
    "the mapping's transformation, e.g. `DIRECT/IDENTITY`); a dataset's `schema` facet "
    "replaces the asset's columns (top-level fields). START, RUNNING, FAIL, ABORT and OTHER "
    "events (and a missing eventType) only record the run's state: one node per runId holding "
    "the state of its latest event by eventTime. A job's newest COMPLETE run (by eventTime, "
    "then state rank) that names a dataset is its whole edge set: edges and column mappings "
    "the job asserted before and that run does not lose the job's origin, and one no other "
    "origin asserts leaves the graph (`lineage.edge.deleted`); `retired` counts them. A "
    "COMPLETE older than the job's standing run, arriving late, retires nothing and adds "
    "nothing the newer run dropped; one with the same time adds to the set. Events arriving "
    "twice or out of order converge: placeholders are unions, and a transformation or schema "
    "is taken only from an event at least as new as the one that set it. A dataset read and "
    "written by the same job makes no edge (a warning says so). Validated whole first: 422 "
    "names each bad field and nothing is written. A change announces one "
    "`lineage.bulk.ingested` event with this summary, and `asset.updated` per asset whose "
    "columns changed."
)
docs = {
    "post_openlineage": Doc(
        "Ingest OpenLineage run events",
        "lineage",
        description="One RunEvent or an array of up to 10,000, written in one transaction. "
        + MAPPING,
        body=RunEvents,
        responses={200: OpenLineageResult},
        errors=(413, 415, 422),
    ),
}
