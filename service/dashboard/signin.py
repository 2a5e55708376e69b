"""/login and /logout: password sign-in that opens a server-side session.

Wrong credentials get the same words and take the same time whether or not the
user exists. Failures are counted per username and per client address in this
process; past the limit the form answers 429 for a while, valid password or not.
The login form carries its own CSRF token (double submit: a cookie and a field),
so nobody can sign a visitor into another account from another site.
"""

from __future__ import annotations

import hmac
import secrets

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service import state
from service.api import deps
from service.dashboard import guard
from service.dashboard.render import error_page, html
from service.domain.access import sessions as rules
from service.routing import PUBLIC, Route
from service.store import federated_users, sessions
from service.store import users as user_store

LOGIN_CSRF_COOKIE = "gov_login_csrf"
WRONG = "Invalid username or password."
MAX_FIELD = 256


def safe_next(target: str | None) -> str:
    """Only a path on this site: `//evil.example` and `https://...` become `/`."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _form(
    request: Request, status: int = 200, error: str | None = None, username: str = ""
) -> Response:
    token = request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(32)
    chosen = deps.settings(request).sso
    context = {
        "error": error,
        "username": username,
        "next": safe_next(request.query_params.get("next")),
        "login_csrf": token,
        "title": "Sign in",
        "sso_label": chosen.button_label if chosen.issuer else None,
        "local_passwords": chosen.local_passwords,
    }
    response = html(request, "login.html", context, None, status)
    response.set_cookie(
        LOGIN_CSRF_COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=guard.is_secure(request),
        path="/login",
    )
    return response


async def show_login(request: Request) -> Response:
    if await guard.current(request) is not None:
        return RedirectResponse(safe_next(request.query_params.get("next")), status_code=303)
    return _form(request)


async def sign_in(request: Request) -> Response:
    chosen = deps.settings(request).sso
    if not chosen.local_passwords:
        message = f"Password sign-in is turned off here: sign in with {chosen.button_label}."
        return error_page(request, None, 403, message)
    form = await request.form(max_files=0, max_fields=10)
    username = str(form.get("username") or "")[:MAX_FIELD]
    password = str(form.get("password") or "")[:MAX_FIELD]
    sent, cookie = str(form.get("csrf_token") or ""), request.cookies.get(LOGIN_CSRF_COOKIE, "")
    if not sent or not cookie or not hmac.compare_digest(sent.encode(), cookie.encode()):
        return error_page(request, None, 403, "The sign-in form expired. Reload it and try again.")
    throttle = state.of(request).signin_throttle
    client = request.client.host if request.client else "unknown"
    wait = throttle.wait(username, client)
    if wait:
        message = f"Too many failed sign-in attempts. Try again in {wait} seconds."
        response = _form(request, 429, message, username)
        response.headers["Retry-After"] = str(wait)
        return response
    user = await user_store.check_password(deps.graph(request), username, password)
    if user is None:
        throttle.failed(username, client)
        return _form(request, 200, WRONG, username)
    session = await sessions.start(deps.graph(request), user)
    target = safe_next(str(form.get("next") or "/"))
    response = RedirectResponse(target, status_code=303)
    set_session_cookie(request, response, session.secret)
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/login")
    return response


def set_session_cookie(request: Request, response: Response, secret: str) -> None:
    secure = guard.is_secure(request)
    response.set_cookie(
        rules.cookie_name(secure),
        secret,
        max_age=int(rules.ABSOLUTE_TIMEOUT.total_seconds()),
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


async def sign_out(request: Request) -> Response:
    """End the session; a user of the provider goes on to end theirs there too."""
    session = await guard.current(request)
    target = "/login"
    if session is not None:
        try:
            await guard.check_csrf(request, session.csrf)
        except guard.Refused as exc:
            return error_page(request, session, exc.status, exc.message)
        graph = deps.graph(request)
        await sessions.end(graph, session.secret)
        if deps.settings(request).sso.issuer and await federated_users.linked(
            graph, session.user.id
        ):
            target = "/auth/oidc/logout"
    response = RedirectResponse(target, status_code=303)
    secure = guard.is_secure(request)  # browsers drop a `__Host-` cookie only when Secure
    response.delete_cookie(rules.cookie_name(secure), path="/", secure=secure, httponly=True)
    return response


# Public: signing in is how a visitor gets a session; signing out checks the
# session's CSRF token itself and ends only that session.
routes = [
    Route(
        "/login",
        show_login,
        methods=["GET"],
        name="login_page",
        policy=PUBLIC,
        include_in_schema=False,
    ),
    Route(
        "/login", sign_in, methods=["POST"], name="login", policy=PUBLIC, include_in_schema=False
    ),
    Route(
        "/logout", sign_out, methods=["POST"], name="logout", policy=PUBLIC, include_in_schema=False
    ),
]
