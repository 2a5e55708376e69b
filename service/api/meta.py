"""Service info, the OpenAPI document, health, readiness and metrics."""

from __future__ import annotations

from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service import __version__
from service.api import deps
from service.errors import Unavailable, from_driver_error
from service.http import json_response
from service.models.common import ResponseModel
from service.openapi import Doc

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
    document: dict[str, Any] = request.state.openapi
    return json_response(document)


async def healthz(request: Request) -> Response:
    return json_response(Health(status="ok"))


async def readyz(request: Request) -> Response:
    if not request.state.readiness.schema_applied:
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
    return Response(generate_latest(request.state.metrics.registry), media_type=CONTENT_TYPE_LATEST)


routes = [
    Route("/api/v1", service_info, methods=["GET"], name="service_info"),
    Route(
        "/api/v1/",
        service_info,
        methods=["GET"],
        name="service_info_slash",
        include_in_schema=False,
    ),
    Route("/api/v1/openapi.json", openapi, methods=["GET"], name="openapi"),
    Route("/healthz", healthz, methods=["GET"], name="healthz"),
    Route("/readyz", readyz, methods=["GET"], name="readyz"),
    Route("/metrics", metrics, methods=["GET"], name="metrics"),
]

docs = {
    "service_info": Doc("Service name and version", "meta", responses={200: ServiceInfo}),
    "openapi": Doc("This OpenAPI 3.1 document", "meta", responses={200: {"type": "object"}}),
    "healthz": Doc("The process is up", "meta", responses={200: Health}),
    "readyz": Doc(
        "Neo4j is reachable and the schema applied", "meta", responses={200: Health}, errors=(503,)
    ),
    "metrics": Doc("Prometheus metrics", "meta", responses={200: "Prometheus text format"}),
}
