"""Pages: Jinja2 templates rendered with the visitor, and the headers every page sends.

Templates autoescape everything; pages load scripts and styles from this service
only (the CSP below), and no page may be framed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from service.api import deps
from service.dashboard import guard, present
from service.domain.access.scopes import Scope
from service.driver_errors import from_driver_error
from service.errors import ServiceError
from service.routing import Access, Policy, PolicyError, Route
from service.store.sessions import Session

HERE = Path(__file__).resolve().parent
CSP = (
    "default-src 'self'; base-uri 'none'; form-action {forms}; frame-ancestors 'none'; "
    "object-src 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP.format(forms="'self'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
Handler = Callable[[Request, Session], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]

_env = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters.update(present.FILTERS)


def _json(value: Any, **_: Any) -> str:
    """`tojson` written by orjson: the lineage page's embedded view (2,000 assets and
    their edges) in a tenth of the json module's time; Jinja still escapes it for a
    <script> block."""
    return orjson.dumps(value).decode()


_env.policies["json.dumps_function"] = _json


def html(
    request: Request,
    template: str,
    context: Mapping[str, Any],
    session: Session | None,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    values = {
        "request": request,
        "user": session.user if session else None,
        "csrf": session.csrf if session else "",
        # Writing pages (ingest, an asset's edit form) check each asset's domain, so a
        # role that reaches editor anywhere (globally or in one domain) shows them.
        "can_write": bool(session and guard.can(session, Scope.WRITE, per_domain=True)),
        "can_admin": bool(session and guard.can(session, Scope.ADMIN)),
        "section": "",
        **context,
    }
    body = _env.get_template(template).render(values)
    sent = {**PAGE_HEADERS, **_sso_forms(request), **(headers or {})}
    return HTMLResponse(body, status_code=status, headers=sent)


def _sso_forms(request: Request) -> dict[str, str]:
    """With single sign-on, forms may also lead to the provider: browsers hold the
    redirects after a form (the sign-in button's, sign-out's) to `form-action`."""
    issuer = deps.settings(request).sso.issuer
    if issuer is None:
        return {}
    provider = urlsplit(issuer)
    forms = f"'self' {provider.scheme}://{provider.netloc}"
    return {"Content-Security-Policy": CSP.format(forms=forms)}


def error_page(
    request: Request,
    session: Session | None,
    status: int,
    message: str,
    onward: tuple[str, str] | None = None,
) -> HTMLResponse:
    headers = {"Retry-After": "2"} if status == 503 else None
    context = {
        "status": status,
        "message": message,
        "title": _TITLES.get(status, "Error"),
        "onward": onward,
    }
    return html(request, "error.html", context, session, status, headers)


_TITLES = {
    400: "Bad request",
    403: "Not allowed",
    404: "Not found",
    409: "Conflict",
    412: "Changed meanwhile",
    413: "Too large",
    422: "Check the form",
    429: "Too many attempts",
    503: "Temporarily unavailable",
}


def page_route(
    path: str, handler: Handler, *, methods: list[str], name: str, policy: Policy
) -> Route:
    """A page for signed-in visitors whose role reaches the policy's scope."""
    return Route(
        path,
        page(handler, signed_in_scope(policy, name), policy.per_domain),
        methods=methods,
        name=name,
        policy=policy,
        include_in_schema=False,
    )


def signed_in_scope(policy: Policy, name: str) -> Scope:
    """The role a session route needs; any other policy is a mistake in the route table."""
    if policy.access is not Access.SESSION:
        raise PolicyError(f"dashboard route {name} must declare a signed-in policy")
    return policy.needs


def page(handler: Handler, needs: Scope, per_domain: bool = False) -> Endpoint:
    """A page for signed-in visitors whose role reaches `needs` (with `per_domain`, their
    best role anywhere); POSTs need CSRF."""

    async def endpoint(request: Request) -> Response:
        try:
            return await _guarded(request, handler, needs, per_domain)
        finally:
            await request.close()  # the parsed form's spooled upload files

    return endpoint


async def _guarded(request: Request, handler: Handler, needs: Scope, per_domain: bool) -> Response:
    session = None
    try:
        session = await guard.current(request)
        if session is None:
            return guard.sign_in_redirect(request)
        request.state.session = session  # for the access log's user_id
        request.state.principal = session.principal  # the caller of the API's own handlers
        guard.require(session, needs, per_domain)
        if request.method == "POST":
            await guard.check_csrf(request, session.csrf)
        return await handler(request, session)
    except guard.Refused as exc:
        return error_page(request, session, exc.status, exc.message, exc.onward)
    except ServiceError as exc:
        return error_page(request, session, exc.status, _said(exc))
    except Exception as exc:
        mapped = from_driver_error(exc)
        if mapped is None:
            raise
        return error_page(request, session, mapped.status, _said(mapped))


def _said(exc: ServiceError) -> str:
    if exc.status == 503:
        return "The graph database is unreachable or busy. Try again in a moment."
    if exc.errors:
        return "; ".join(f"{e.loc[-1]}: {e.msg}" for e in exc.errors[:5])
    return exc.detail
