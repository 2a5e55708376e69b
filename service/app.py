"""The one wiring point: routes, middleware, exception handlers and lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
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
    events,
    lineage,
    manifest,
    meta,
    openlineage,
    policies,
    quality,
    query,
    sql,
    tokens,
    users,
    webhooks,
)
from service.api.uploads import InflationBudget
from service.auth.middleware import AuthMiddleware
from service.dashboard import routes as dashboard
from service.dashboard.signin import SignInThrottle
from service.driver_errors import from_driver_error
from service.errors import MethodNotAllowed, NotFound, ServiceError
from service.events.broker import Broker
from service.events.delivery import Deliverer
from service.events.dispatcher import Dispatcher
from service.events.policy_evaluator import PolicyEvaluator
from service.graph import Graph
from service.http import CLIENT_CLOSED_REQUEST, problem_response
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
from service.store import events as event_store
from service.store import idempotency, sessions
from service.store import users as user_store

log = logging.getLogger(__name__)
MODULES = (
    meta,
    assets,
    manifest,
    openlineage,
    sql,
    lineage,
    policies,
    quality,
    query,
    events,
    webhooks,
    tokens,
    users,
)
SCHEMA_RETRY_S = 2.0
PURGE_INTERVAL_S = 3600.0
FIRST_ADMIN = "admin"


@dataclass
class Readiness:
    schema_applied: bool = False


def create_app(settings: Settings) -> Starlette:
    if not settings.neo4j_uri:
        raise ValueError(
            "NEO4J_URI is not set: point it at Neo4j, or use `governance serve`, "
            "which starts the local development Neo4j"
        )
    queries = cypher.load()
    routes = [route for module in MODULES for route in module.routes]
    every_route = [*routes, *dashboard.routes()]
    # Each route declares its policy; a request no route takes (404, 405) is answered
    # as it is to anyone. A route without a policy stops start-up here.
    policies = Policies(every_route, unrouted=PUBLIC)
    document = openapi_document(settings.limits)
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        graph = Graph.connect(settings, queries, settings.neo4j_uri or "", metrics)
        readiness = Readiness()
        broker = Broker(
            graph,
            settings.events.poll_interval_s,
            settings.events.subscriber_buffer,
            on_count=metrics.sse_subscribers.set,
        )
        retention = timedelta(days=settings.events.retention_days)
        hooks = settings.webhooks
        deliverer = Deliverer(hooks.allow_private, hooks.timeout_s)
        dispatcher = Dispatcher(graph, hooks, deliverer, metrics)
        depth = settings.limits.max_lineage_depth
        evaluator = PolicyEvaluator(graph, settings.policies, depth, metrics)
        prepared = asyncio.create_task(_prepare(graph, readiness, settings), name="schema")
        tasks = [
            prepared,
            asyncio.create_task(_housekeeping(graph, retention), name="housekeeping"),
            asyncio.create_task(broker.run(), name="event-follower"),
        ]
        if hooks.dispatch:
            tasks.append(
                asyncio.create_task(_after(prepared, dispatcher.run), name="webhook-dispatcher")
            )
        if settings.policies.evaluate:
            tasks.append(
                asyncio.create_task(_after(prepared, evaluator.run), name="policy-evaluator")
            )
        try:
            yield {
                "graph": graph,
                "settings": settings,
                "readiness": readiness,
                "metrics": metrics,
                "openapi": document,
                "broker": broker,
                "deliverer": deliverer,
                "signin_throttle": SignInThrottle(settings.rate_limit),
                "inflation": InflationBudget(
                    settings.limits.max_concurrent_inflations, settings.limits.inflation_wait_s
                ),
            }
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await dispatcher.release()
            await evaluator.release()
            metrics.close()
            await deliverer.close()
            await graph.close()

    middleware = [
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
    return Starlette(
        routes=every_route,
        middleware=middleware,
        exception_handlers={
            ServiceError: _service_error,
            HTTPException: _http_exception,
            Neo4jError: _driver_error,
            DriverError: _driver_error,
            ClientDisconnect: _client_gone,
            Exception: _unexpected,
        },
        lifespan=lifespan,
    )


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


async def _prepare(graph: Graph, readiness: Readiness, settings: Settings) -> None:
    """Schema, then the first admin; retried until Neo4j answers, so the service can
    start before its database."""
    while True:
        try:
            await graph.apply_schema()
            await graph.write("meta.await_indexes")
            await _first_admin(graph, settings)
            readiness.schema_applied = True
            return
        except Exception as exc:
            log.warning("schema not applied yet (%s); retrying", type(exc).__name__)
            await asyncio.sleep(SCHEMA_RETRY_S)


async def _first_admin(graph: Graph, settings: Settings) -> None:
    """With no user at all, create `admin`; a generated password is printed this once."""
    configured = settings.admin_password
    password = configured.get_secret_value() if configured else secrets.token_urlsafe(18)
    made = await user_store.ensure_first_admin(graph, FIRST_ADMIN, password)
    if made is not None and configured is None:
        print(
            f"\n  First start: created the user {FIRST_ADMIN!r} with the password\n\n"
            f"      {password}\n\n  Sign in to the dashboard with it, then change it under "
            "Settings → Users. It is not shown again.\n",
            flush=True,
        )
    elif made is not None:
        log.info("created the first admin %r from GOVERNANCE_ADMIN_PASSWORD", FIRST_ADMIN)


async def _after(prepared: asyncio.Task[None], work: Callable[[], Awaitable[None]]) -> None:
    """Lease holders start once the schema is in place: a lease is MERGEd by name, and
    processes starting together on an empty database would each create their own
    before the uniqueness constraint exists (which then can never be created)."""
    await asyncio.wait([prepared])  # unlike `await prepared`, a cancel here spares it
    await work()


async def _housekeeping(graph: Graph, event_retention: timedelta) -> None:
    """Expired idempotency records and events past retention, hourly."""
    while True:
        await asyncio.sleep(PURGE_INTERVAL_S)
        try:
            await idempotency.purge(graph)
            await sessions.purge(graph)
            await event_store.trim(graph, event_retention)
        except Exception:
            log.warning("housekeeping failed", exc_info=True)


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
