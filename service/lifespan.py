"""One process's lifespan: what it makes on start-up (the driver, the event broker,
the webhook deliverer, the background workers), handed to every request as a typed
`service.state.AppState`, and what it stops and closes on shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import Any

from starlette.applications import Starlette

from service import state
from service.cypher import Queries
from service.domain.access.password_rules import password_problem
from service.events.broker import Broker
from service.events.delivery import Deliverer
from service.events.dispatcher import Dispatcher
from service.events.policy_evaluator import PolicyEvaluator
from service.graph import Graph
from service.metrics import Metrics
from service.ratelimit import SignInThrottle
from service.settings import Settings
from service.store import (
    asset_versions,
    edge_sets,
    event_placement,
    finding_shape,
    history,
    idempotency,
    migrations,
    sessions,
)
from service.store import events as event_store
from service.store import users as user_store
from service.store.inflation import InflationBudget

log = logging.getLogger(__name__)
SCHEMA_RETRY_S = 2.0
PURGE_INTERVAL_S = 3600.0
FIRST_ADMIN = "admin"

Lifespan = Callable[[Starlette], contextlib.AbstractAsyncContextManager[dict[str, Any]]]


def lifespan(
    settings: Settings, queries: Queries, metrics: Metrics, openapi: dict[str, Any]
) -> Lifespan:
    """The lifespan of an app made from these settings; a first admin's password that
    breaks the password rules stops the start here, before anything runs."""
    configured = settings.admin_password
    problem = password_problem(configured.get_secret_value(), FIRST_ADMIN) if configured else None
    if problem:
        raise ValueError(f"GOVERNANCE_ADMIN_PASSWORD is not accepted: the password {problem}")

    @contextlib.asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        graph = Graph.connect(settings, queries, settings.neo4j_uri or "", metrics)
        made = state.AppState(
            settings=settings,
            graph=graph,
            readiness=state.Readiness(),
            metrics=metrics,
            openapi=openapi,
            broker=Broker(
                graph,
                settings.events.poll_interval_s,
                settings.events.subscriber_buffer,
                on_count=metrics.sse_subscribers.set,
            ),
            deliverer=Deliverer(settings.webhooks.allow_private, settings.webhooks.timeout_s),
            signin_throttle=SignInThrottle(settings.rate_limit),
            inflation=InflationBudget(
                settings.limits.max_concurrent_inflations, settings.limits.inflation_wait_s
            ),
        )
        async with _workers(made):
            yield {state.KEY: made}

    return run


@contextlib.asynccontextmanager
async def _workers(made: state.AppState) -> AsyncIterator[None]:
    """The background tasks of one process, cancelled and released on the way out."""
    settings, graph, metrics = made.settings, made.graph, made.metrics
    dispatcher = Dispatcher(graph, settings.webhooks, made.deliverer, metrics)
    depth = settings.limits.max_lineage_depth
    evaluator = PolicyEvaluator(graph, settings.policies, depth, metrics)
    retention = timedelta(days=settings.events.retention_days)
    history_days = settings.history.retention_days
    kept = timedelta(days=history_days) if history_days else None
    prepared = asyncio.create_task(_prepare(graph, made.readiness, settings), name="schema")
    tasks = [
        prepared,
        asyncio.create_task(_housekeeping(graph, retention, kept), name="housekeeping"),
        asyncio.create_task(made.broker.run(), name="event-follower"),
        asyncio.create_task(
            _after(prepared, lambda: _backfill(graph, settings)), name="history-backfill"
        ),
    ]
    if settings.webhooks.dispatch:
        tasks.append(
            asyncio.create_task(_after(prepared, dispatcher.run), name="webhook-dispatcher")
        )
    if settings.policies.evaluate:
        tasks.append(asyncio.create_task(_after(prepared, evaluator.run), name="policy-evaluator"))
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await dispatcher.release()
        await evaluator.release()
        metrics.close()
        await made.deliverer.close()
        await graph.close()


async def _prepare(graph: Graph, readiness: state.Readiness, settings: Settings) -> None:
    """Schema, the index of writers' edge sets written before it was (a replace must
    find them: readiness waits for it; once per database, `store.migrations`), then the
    first admin; retried until Neo4j answers, so the service can start before its
    database."""
    while True:
        try:
            await graph.apply_schema()
            await graph.write("meta.await_indexes")
            await migrations.once(graph, "edge_origin_index", edge_sets.backfill)
            await _first_admin(graph, settings)
            readiness.schema_applied = True
            return
        except Exception as exc:
            log.warning("schema not applied yet (%s); retrying", type(exc).__name__)
            await asyncio.sleep(SCHEMA_RETRY_S)


async def _first_admin(graph: Graph, settings: Settings) -> None:
    """With no user at all, create `admin`; a generated password is printed this once."""
    configured = settings.admin_password
    password = configured.get_secret_value() if configured else _generated_password()
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


def _generated_password() -> str:
    """144 random bits; drawn again in the unlikely case one spells the username."""
    while True:
        password = secrets.token_urlsafe(18)
        if password_problem(password, FIRST_ADMIN) is None:
            return password


async def _after(prepared: asyncio.Task[None], work: Callable[[], Awaitable[None]]) -> None:
    """Lease holders start once the schema is in place: a lease is MERGEd by name, and
    processes starting together on an empty database would each create their own
    before the uniqueness constraint exists (which then can never be created)."""
    await asyncio.wait([prepared])  # unlike `await prepared`, a cancel here spares it
    await work()


# The one-off fills of what older graphs lack: (migration name, fill, log line for
# how many it filled), in the order they must run.
Fill = Callable[[Graph], Awaitable[int]]
BACKFILLS: tuple[tuple[str, Fill, str], ...] = (
    ("lineage_history", history.backfill, "opened the history of %d edges and column mappings"),
    ("lineage_history_trails", history.fill_trails, "filled %d lineage trails"),
    (
        "lineage_history_instants",
        history.fill_instants,
        "filled the summary in milliseconds of %d edge histories",
    ),
    (
        "asset_versions",
        asset_versions.backfill,
        "wrote a first version for %d assets kept before versions were",
    ),
    (
        "event_placement",
        event_placement.backfill,
        "placed %d events written before events were placed in private domains",
    ),
    (
        "summary_placement",
        event_placement.place_old_summaries,
        "placed %d ingestion summaries written before summaries were placed",
    ),
)


def _backfills(settings: Settings) -> tuple[tuple[str, Fill, str], ...]:
    """BACKFILLS, then those that need the service's settings: the policy evaluation
    that rewrites old findings walks as deep as every evaluation does."""
    reshape = partial(
        finding_shape.reshape,
        max_depth=settings.limits.max_lineage_depth,
        timeout_s=settings.policies.timeout_s,
    )
    done = "evaluated %d restricted_column_flow policies holding findings of the old shape"
    return (*BACKFILLS, ("column_flow_findings", reshape, done))


async def _backfill(graph: Graph, settings: Settings) -> None:
    """Histories for live edges, and first versions for assets, from before history was
    kept, once the schema is in place (its constraints keep processes starting together
    from making two trails per id or two first versions). In the background: a large
    graph's first pass must not hold back readiness; until it is done, an as_of read
    answers an unversioned asset from the live one (`lineage.traverse_as_of`). Each
    runs once, in order; one that fails is logged and resumed at the next start."""
    for name, fill, done in _backfills(settings):
        try:
            count = await migrations.once(graph, name, fill)
        except Exception:
            log.warning("the %s backfill failed; the next start resumes it", name, exc_info=True)
        else:
            if count:
                log.info(done, count)


async def _housekeeping(
    graph: Graph, event_retention: timedelta, history_retention: timedelta | None
) -> None:
    """Expired idempotency records, events past retention and, when a retention is set,
    lineage history past it, hourly."""
    while True:
        await asyncio.sleep(PURGE_INTERVAL_S)
        try:
            await idempotency.purge(graph)
            await sessions.purge(graph)
            await event_store.trim(graph, event_retention)
            if history_retention is not None:
                await history.prune(graph, history_retention)
        except Exception:
            log.warning("housekeeping failed", exc_info=True)
