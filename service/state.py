"""What one process's lifespan makes once and every request may use, typed.

The lifespan (`service.lifespan`) yields one `AppState` under `KEY`; Starlette hands a
copy of that mapping to each request as `request.state` (the ASGI scope's `state`),
so a handler asks `state.of(request).graph` and a middleware `state.in_scope(scope)`
(or `state.among(scope["state"])`),
and a misspelt or missing name is a type error, not an AttributeError at run time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import Scope

from service.events.broker import Broker
from service.events.delivery import Deliverer
from service.graph import Graph
from service.metrics import Metrics
from service.ratelimit import SignInThrottle
from service.settings import Settings
from service.store.inflation import InflationBudget

KEY = "app"


@dataclass
class Readiness:
    """Set once the schema is in place and the first admin exists (`/readyz`)."""

    schema_applied: bool = False


@dataclass(frozen=True)
class AppState:
    settings: Settings
    graph: Graph
    readiness: Readiness
    metrics: Metrics
    openapi: dict[str, Any]
    broker: Broker
    deliverer: Deliverer
    signin_throttle: SignInThrottle
    inflation: InflationBudget


def of(connection: HTTPConnection) -> AppState:
    """The state of the app serving this request."""
    return in_scope(connection.scope)


def in_scope(scope: Scope) -> AppState:
    return among(scope["state"])


def among(request_state: Mapping[str, Any]) -> AppState:
    """From a request's state mapping (the scope's `state`), as a middleware holds it."""
    made: AppState = request_state[KEY]
    return made
