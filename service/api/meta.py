"""Service info, the OpenAPI document, health, readiness and metrics."""

from __future__ import annotations

import hmac

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import Response

from service import __version__, state
from service.api import deps
from service.driver_errors import from_driver_error
from service.errors import Unauthenticated, Unavailable
from service.events.progress import progress
from service.http import json_response
from service.models.common import ResponseModel
from service.openapi import Doc
from service.routing import PUBLIC, Route

SERVICE_NAME = "data-governance-service"


class ServiceInfo(ResponseModel):
    service: str
    version: str
    api_version: str


class Health(ResponseModel):
    status: str


async def service_info(request: Request) -> Response:
    return json_response(ServiceInfo(service=SERVICE_NAME, version=__version__, api_version="v1"))


async def openapi(request: Request) -> Response:
    document = state.of(request).openapi
    return json_response(document)


async def healthz(request: Request) -> Response:
    return json_response(Health(status="ok"))


async def readyz(request: Request) -> Response:
    if not state.of(request).readiness.schema_applied:
        raise Unavailable(code="schema_not_applied", headers={"Retry-After": "2"})
    try:
        await deps.graph(request).ping()
    except Exception as exc:
        mapped = from_driver_error(exc)
        if mapped is None:
            raise
        raise mapped from exc
    return json_response(Health(status="ready"))


async def metrics(request: Request) -> Response:
    """The outbox positions are read from Neo4j now; when it cannot answer, the other
    series are still served and the outbox gauges keep their last values."""
    _check_scraper(request)
    observed = state.of(request).metrics
    broker = state.of(request).broker
    try:
        seen = await progress(deps.graph(request), broker)
    except Exception as exc:
        if from_driver_error(exc) is None:
            raise
    else:
        observed.outbox(seen.newest, seen.positions)
    return Response(generate_latest(observed.scrape_registry()), media_type=CONTENT_TYPE_LATEST)


def _check_scraper(request: Request) -> None:
    """With GOVERNANCE_METRICS_TOKEN set, a scrape sends it as a bearer token."""
    expected = deps.settings(request).observability.metrics_token
    if expected is None:
        return
    scheme, _, sent = request.headers.get("authorization", "").partition(" ")
    sent = sent.strip() if scheme.lower() == "bearer" else ""
    if not hmac.compare_digest(sent.encode(), expected.get_secret_value().encode()):
        challenge = 'Bearer realm="metrics"' + (', error="invalid_token"' if sent else "")
        raise Unauthenticated(
            "Metrics need the metrics token: send `Authorization: Bearer <token>`.",
            code="invalid_token" if sent else "unauthenticated",
            headers={"WWW-Authenticate": challenge},
        )


routes = [
    Route("/api/v1", service_info, methods=["GET"], name="service_info", policy=PUBLIC),
    Route(
        "/api/v1/",
        service_info,
        methods=["GET"],
        name="service_info_slash",
        policy=PUBLIC,
        include_in_schema=False,
    ),
    Route("/api/v1/openapi.json", openapi, methods=["GET"], name="openapi", policy=PUBLIC),
    Route("/healthz", healthz, methods=["GET"], name="healthz", policy=PUBLIC),
    Route("/readyz", readyz, methods=["GET"], name="readyz", policy=PUBLIC),
    Route("/metrics", metrics, methods=["GET"], name="metrics", policy=PUBLIC),
]

docs = {
    "service_info": Doc("Service name and version", "meta", responses={200: ServiceInfo}),
    "openapi": Doc("This OpenAPI 3.1 document", "meta", responses={200: {"type": "object"}}),
    "healthz": Doc("The process is up", "meta", responses={200: Health}),
    "readyz": Doc(
        "Neo4j is reachable and the schema applied", "meta", responses={200: Health}, errors=(503,)
    ),
    "metrics": Doc(
        "Prometheus metrics",
        "meta",
        description="With GOVERNANCE_METRICS_TOKEN set, a scrape sends it as a bearer token.",
        responses={200: "Prometheus text format"},
        errors=(401,),
    ),
}
