"""JSON for the pages' own scripts, authenticated by the session instead of a token.

These endpoints live outside `/api/v1` (which takes bearer tokens only). They
answer problem+json like the API: 401 when the session is gone, so a script can
send the visitor to sign in again. A POST needs the session's CSRF token in the
`X-CSRF-Token` header, as the pages' forms need it in a field (403 without it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from service.dashboard import guard
from service.dashboard.render import signed_in_scope
from service.domain.access.scopes import Scope
from service.errors import Forbidden, InsufficientScope, Unauthenticated
from service.http import problem_response
from service.routing import Policy, Route

Endpoint = Callable[[Request], Awaitable[Response]]


def session_json_route(
    path: str, handler: Endpoint, *, name: str, policy: Policy, method: str = "GET"
) -> Route:
    """A GET (or a POST that changes nothing, such as a check) for the pages' scripts,
    for sessions whose role reaches the policy's scope."""
    endpoint = session_json(handler, signed_in_scope(policy, name))
    return Route(
        path, endpoint, methods=[method], name=name, policy=policy, include_in_schema=False
    )


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
        if request.method == "POST" and not _csrf_sent(request, session.csrf):
            return problem_response(CSRF_REFUSED, request.scope)
        request.state.session = session
        request.state.principal = session.principal  # an API handler's caller
        return await handler(request)

    return endpoint


CSRF_REFUSED = Forbidden(
    "This page has expired or did not come from this site. Reload it and try again.",
    code="csrf_refused",
)


def _csrf_sent(request: Request, expected: str) -> bool:
    """A script's POST carries the session's CSRF token in its header (never in the body,
    which is the upload itself) and comes from this site."""
    sent = request.headers.get(guard.CSRF_HEADER, "")
    return bool(sent) and guard.same_secret(sent, expected) and guard.same_origin(request)
