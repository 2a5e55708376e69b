"""The one wiring point: routes, middleware, exception handlers and lifespan."""

from __future__ import annotations

import logging
from typing import Any

from neo4j.exceptions import DriverError, Neo4jError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from service import __version__, cypher
from service.api import (
    assets,
    column_tags,
    domains,
    events,
    impact,
    lineage,
    lineage_export,
    manifest,
    meta,
    openlineage,
    policies,
    quality,
    query,
    sql,
    teams,
    tokens,
    users,
    webhooks,
)
from service.auth import oidc
from service.auth.middleware import AuthMiddleware
from service.dashboard import routes as dashboard
from service.driver_errors import from_driver_error
from service.errors import MethodNotAllowed, NotFound, ServiceError, malformed_form
from service.http import CLIENT_CLOSED_REQUEST, media_type, problem_response
from service.lifespan import lifespan
from service.metrics import Metrics
from service.middleware.access_log import AccessLogMiddleware
from service.middleware.body_limit import BodyLimitMiddleware
from service.middleware.content_encoding import ContentEncodingMiddleware
from service.middleware.idempotency import IdempotencyMiddleware
from service.middleware.metrics import MetricsMiddleware
from service.middleware.raw_path import RawPathMiddleware
from service.middleware.request_id import RequestIdMiddleware
from service.middleware.route_policy import RoutePolicyMiddleware
from service.middleware.server_timing import ServerTimingMiddleware
from service.openapi import build as build_openapi
from service.routing import PUBLIC, Body, Policies
from service.settings import Limits, Settings

log = logging.getLogger(__name__)
MODULES = (
    meta,
    assets,
    column_tags,
    manifest,
    impact,
    openlineage,
    sql,
    lineage_export,  # before lineage, whose last route takes any path under /lineage/
    lineage,
    policies,
    quality,
    query,
    events,
    webhooks,
    tokens,
    users,
    teams,
    domains,
)


def create_app(settings: Settings) -> Starlette:
    if not settings.neo4j_uri:
        raise ValueError(
            "NEO4J_URI is not set: point it at Neo4j, or use `governance serve`, "
            "which starts the local development Neo4j"
        )
    queries = cypher.load()
    routes = [route for module in MODULES for route in module.routes]
    every_route = [*routes, *dashboard.routes(oidc.configure(settings.sso))]
    # Each route declares its policy; a request no route takes (404, 405) is answered
    # as it is to anyone. A route without a policy stops start-up here.
    policies = Policies(every_route, unrouted=PUBLIC)
    document = openapi_document(settings.limits)
    metrics = Metrics()

    return Starlette(
        routes=every_route,
        middleware=_middleware(settings, policies, metrics),
        exception_handlers={
            ServiceError: _service_error,
            HTTPException: _http_exception,
            Neo4jError: _driver_error,
            DriverError: _driver_error,
            ClientDisconnect: _client_gone,
            Exception: _unexpected,
        },
        lifespan=lifespan(settings, queries, metrics, document),
    )


def _middleware(settings: Settings, policies: Policies, metrics: Metrics) -> list[Middleware]:
    """Outermost first: timing and request ids see everything; the body limit and
    authentication run before idempotency, which needs the caller and a bounded body."""
    return [
        *([Middleware(ServerTimingMiddleware)] if settings.observability.server_timing else []),
        Middleware(RequestIdMiddleware),
        Middleware(AccessLogMiddleware),
        Middleware(RawPathMiddleware),
        Middleware(RoutePolicyMiddleware, policies=policies),
        Middleware(MetricsMiddleware, metrics=metrics),
        *(
            [
                Middleware(
                    CORSMiddleware,
                    allow_origins=list(settings.cors_origins),
                    allow_headers=["*"],
                    allow_methods=["*"],
                    expose_headers=["*"],
                )
            ]
            if settings.cors_origins
            else []
        ),
        Middleware(ContentEncodingMiddleware),
        Middleware(
            BodyLimitMiddleware,
            limits={
                Body.STANDARD: settings.limits.max_body_bytes,
                Body.MANIFEST: settings.limits.max_manifest_bytes,
            },
            timeout_s=settings.limits.body_timeout_s,
        ),
        Middleware(AuthMiddleware, rate_limit=settings.rate_limit),
        Middleware(IdempotencyMiddleware),
    ]


def openapi_document(limits: Limits) -> dict[str, Any]:
    """The OpenAPI document, from the route table and the configured limits (the
    bounds and defaults of `depth`, `limit`, ...): no database."""
    routes = [route for module in MODULES for route in module.routes]
    docs = {name: doc for module in MODULES for name, doc in module.docs.items()}
    return build_openapi(
        routes,
        docs,
        {
            "title": "Data Governance Service",
            "version": __version__,
            "description": (
                "Assets, lineage, policies and quality rules on a Neo4j graph. Every answer "
                "carries `X-Request-ID` and `Server-Timing: db;dur=…, total;dur=…` "
                "(milliseconds waiting on Neo4j, and until the service answered)."
            ),
        },
        limits,
    )


async def _service_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServiceError)
    return problem_response(exc, request.scope)


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    error: ServiceError
    if exc.status_code == 404:
        error = NotFound(f"No route for {request.url.path}.", code="route_not_found")
    elif exc.status_code == 405:
        error = MethodNotAllowed(
            f"{request.method} is not allowed on this path.", headers=dict(exc.headers or {})
        )
    elif exc.status_code == 400:  # Starlette's words for a form it cannot parse
        error = malformed_form(exc.detail, media_type(request) == "multipart/form-data")
    else:
        error = ServiceError(exc.detail)
        error.status = exc.status_code
    return problem_response(error, request.scope)


async def _driver_error(request: Request, exc: Exception) -> Response:
    mapped = from_driver_error(exc)
    if mapped is None:
        log.error("unexpected Neo4j error", exc_info=exc)
        mapped = ServiceError()
    return problem_response(mapped, request.scope)


async def _client_gone(request: Request, exc: Exception) -> Response:
    """The client closed its connection before its body had arrived: nobody reads an
    answer and it is no server error, so it is logged and counted as 499 (the status
    proxies use for a client that closed the request), not as an unhandled 500."""
    return Response(status_code=CLIENT_CLOSED_REQUEST)


async def _unexpected(request: Request, exc: Exception) -> Response:
    log.error("unhandled error", exc_info=exc)
    return problem_response(ServiceError(), request.scope)
