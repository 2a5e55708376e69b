"""JSON for the pages' own scripts, authenticated by the session instead of a token.

These endpoints live outside `/api/v1` (which takes bearer tokens only). They
answer problem+json like the API: 401 when the session is gone, so a script can
send the visitor to sign in again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from service.dashboard import guard
from service.dashboard.render import signed_in_scope
from service.domain.access.scopes import Scope
from service.errors import InsufficientScope, Unauthenticated
from service.http import problem_response
from service.routing import Policy, Route

Endpoint = Callable[[Request], Awaitable[Response]]


def session_json_route(path: str, handler: Endpoint, *, name: str, policy: Policy) -> Route:
    """A GET for the pages' scripts, for sessions whose role reaches the policy's scope."""
    endpoint = session_json(handler, signed_in_scope(policy, name))
    return Route(path, endpoint, methods=["GET"], name=name, policy=policy, include_in_schema=False)


def session_json(handler: Endpoint, needs: Scope) -> Endpoint:
    async def endpoint(request: Request) -> Response:
        session = await guard.current(request)
        if session is None:
            error = Unauthenticated("Your session has ended; sign in again.", code="no_session")
            return problem_response(error, request.scope)
        if not guard.can(session, needs):
            return problem_response(
                InsufficientScope(f"Needs the {needs.label} role."), request.scope
            )
        request.state.session = session
        return await handler(request)

    return endpoint
