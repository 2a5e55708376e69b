"""Who is looking at a page: the session cookie, the role it needs, and CSRF.

Pages never accept a bearer token and `/api/v1` never accepts this cookie, so a
script running in a page cannot lend the session to the API or the reverse.
Every POST carries the session's CSRF token (a form field, or the `X-CSRF-Token`
header for scripts), compared in constant time; the Origin header, when the
browser sends one, must be this site.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service.api import deps
from service.domain.access import sessions as rules
from service.domain.access.scopes import ROLE_SCOPE, Scope
from service.domain.event_types import TypeFilter
from service.store import sessions
from service.store.sessions import Session

Handler = Callable[[Request, Session], Awaitable[Response]]
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


class Refused(Exception):
    """The visitor may not do this: rendered as a page (or a problem for scripts)."""

    def __init__(self, status: int, message: str, onward: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.onward = onward  # (path, label): where the visitor goes next, when not home


def is_secure(request: Request) -> bool:
    """Whether browsers reach the dashboard over https (GOVERNANCE_SESSION_COOKIE_SECURE):
    behind a TLS-terminating proxy the request itself came over http."""
    mode = deps.settings(request).session_cookie_secure
    return request.url.scheme == "https" if mode == "auto" else mode == "always"


def session_cookie(request: Request) -> str | None:
    return request.cookies.get(rules.cookie_name(is_secure(request)))


async def current(request: Request) -> Session | None:
    secret = session_cookie(request)
    if not secret or len(secret) > 128:
        return None
    return await sessions.resume(deps.graph(request), secret)


def sign_in_redirect(request: Request) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)


def same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    scheme = "https" if is_secure(request) else request.url.scheme
    return origin is None or origin == f"{scheme}://{request.url.netloc}"


def same_secret(sent: str, expected: str) -> bool:
    """Constant-time equality of two secrets as bytes: `hmac.compare_digest` raises on
    str holding non-ASCII, which a header or form field may carry."""
    return hmac.compare_digest(sent.encode(), expected.encode())


async def check_csrf(request: Request, expected: str) -> None:
    """Refuse a POST whose CSRF token is missing or wrong (403, nothing changes)."""
    sent = request.headers.get(CSRF_HEADER)
    if sent is None:
        form = await request.form()
        value = form.get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if not sent or not same_secret(sent, expected) or not same_origin(request):
        raise Refused(
            403,
            "This form has expired or did not come from this site. Reload the page and try again.",
        )


def require(session: Session, needed: Scope, per_domain: bool = False) -> None:
    if not can(session, needed, per_domain):
        raise Refused(
            403, f"This page needs the {needed.label} permission; your role is {session.user.role}."
        )


def can(session: Session, needed: Scope, per_domain: bool = False) -> bool:
    """Whether the global role reaches `needed`; with `per_domain` (a page that checks
    each asset's domain itself), whether the user's best role anywhere does."""
    principal = session.principal
    return (principal.scope if per_domain else ROLE_SCOPE[session.user.role]) >= needed


def event_view(session: Session) -> TypeFilter:
    """The events this user may see: below admin, no audit trail and only their own
    tokens' `token.*` events."""
    return TypeFilter().for_reader(can(session, Scope.ADMIN), session.user.id)
