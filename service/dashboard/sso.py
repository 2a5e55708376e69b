"""/auth/oidc/*: signing in to the dashboard through the OpenID provider.

`login` sends the browser to the provider with a fresh state, nonce and PKCE
challenge; the state also goes into a short-lived cookie, so the callback is taken
only from the browser that started it (no one can sign a visitor into an account of
theirs by sending them a link). `callback` takes its flow once, exchanges the code,
checks the ID token (service.auth.oidc), makes or updates the user
(service.store.federated_users) and opens a session as a password sign-in does.
`logout` is where signing out sends a provider's user: on to the provider's
end-session endpoint, and back to the sign-in page.

Starts are rate-limited per browser, not per address (`ratelimit.SignInThrottle`):
the first start hands the browser a long-lived signed mark, and later starts are
counted against it, so browsers behind one proxy do not lock each other out.

A provider that does not answer is a 503 page with Retry-After, never a 500; a
callback whose state does not match is a 400 page.
"""

from __future__ import annotations

import hmac
from urllib.parse import urljoin

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from service import state
from service.api import deps
from service.auth.oidc import Provider, ProviderRefused, ProviderUnavailable
from service.dashboard import guard
from service.dashboard.render import error_page
from service.dashboard.signin import safe_next, set_session_cookie
from service.domain.access import sso
from service.errors import Conflict, Forbidden
from service.routing import PUBLIC, Route
from service.store import federated_users, sessions, sign_in_flows
from service.store.sign_in_flows import LIFETIME, Flow

STATE_COOKIE = "gov_oidc_state"
COOKIE_PATH = "/auth/oidc"
# Each browser's mark, by which its sign-in starts are counted apart from other
# browsers behind the same address (service.domain.access.browser_marks).
BROWSER_COOKIE = "gov_oidc_browser"
MARK_LIFETIME_S = 400 * 24 * 3600  # the longest a browser keeps a cookie
RETRY_AFTER_S = 10
MAX_PARAM = 2048
NOT_CONFIGURED = "Single sign-on is not configured here."
START_AGAIN = "This sign-in did not start in this browser, or took too long. Start it again."
UNAVAILABLE = "The sign-in provider cannot be reached right now. Try again in a moment."
TOO_MANY = "Too many sign-ins started from here. Try again in {wait} seconds."
NO_ROLE = (
    "You signed in at the provider, but none of your groups gives you a role here. "
    "Ask an administrator to add you to one."
)


def _unavailable(request: Request) -> Response:
    response = error_page(request, None, 503, UNAVAILABLE)
    response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return response


def own_url(request: Request, path: str) -> str:
    """An address of this dashboard as browsers reach it: beside the configured
    redirect URI (right behind a proxy), else from the request."""
    configured = deps.settings(request).sso.redirect_uri
    return urljoin(configured, path) if configured else str(request.base_url).rstrip("/") + path


def _browser(request: Request) -> tuple[str, str | None]:
    """The id of the browser starting a sign-in, from its mark; for a browser with none
    (or a forged one), a new id and the mark to hand it."""
    marks = deps.browser_marks(request)
    known = marks.holder(request.cookies.get(BROWSER_COOKIE))
    return (known, None) if known else marks.mint()


def _redirect_uri(request: Request) -> str:
    return deps.settings(request).sso.redirect_uri or own_url(request, "/auth/oidc/callback")


class Pages:
    """The three routes over one provider (None: single sign-on is off, each is 404)."""

    def __init__(self, provider: Provider | None) -> None:
        self.provider = provider

    async def login(self, request: Request) -> Response:
        if self.provider is None:
            return error_page(request, None, 404, NOT_CONFIGURED)
        client = request.client.host if request.client else "unknown"
        browser, new_mark = _browser(request)
        wait = state.of(request).signin_throttle.start(client, browser, new_mark is None)
        if wait:
            refused = error_page(request, None, 429, TOO_MANY.format(wait=wait))
            refused.headers["Retry-After"] = str(wait)
            return refused
        try:
            made = await self.provider.redirect(_redirect_uri(request))
        except ProviderUnavailable:
            return _unavailable(request)
        except ProviderRefused:
            return error_page(request, None, 502, UNAVAILABLE)
        target = safe_next(request.query_params.get("next"))
        flow = Flow(made.nonce, made.code_verifier, target)
        await sign_in_flows.keep(deps.graph(request), made.state, flow)
        response = RedirectResponse(made.url, status_code=303)
        response.set_cookie(
            STATE_COOKIE,
            made.state,
            max_age=int(LIFETIME.total_seconds()),
            httponly=True,
            samesite="lax",  # sent on the provider's top-level redirect back here
            secure=guard.is_secure(request),
            path=COOKIE_PATH,
        )
        if new_mark:
            response.set_cookie(
                BROWSER_COOKIE,
                new_mark,
                max_age=MARK_LIFETIME_S,
                httponly=True,
                samesite="lax",
                secure=guard.is_secure(request),
                path=COOKIE_PATH,
            )
        return response

    async def callback(self, request: Request) -> Response:
        if self.provider is None:
            return error_page(request, None, 404, NOT_CONFIGURED)
        response = await self._finish(request, self.provider)
        response.delete_cookie(STATE_COOKIE, path=COOKIE_PATH)
        return response

    async def _finish(self, request: Request, provider: Provider) -> Response:
        query = request.query_params
        if "error" in query:
            said = query.get("error_description") or query["error"]
            return error_page(request, None, 400, f"The provider did not sign you in: {said[:200]}")
        state, code = query.get("state", ""), query.get("code", "")
        cookie = request.cookies.get(STATE_COOKIE, "")
        fits = state and code and len(state) <= MAX_PARAM and len(code) <= MAX_PARAM
        if not fits or not cookie or not hmac.compare_digest(state.encode(), cookie.encode()):
            return error_page(request, None, 400, START_AGAIN)
        flow = await sign_in_flows.take(deps.graph(request), state)
        if flow is None:
            return error_page(request, None, 400, START_AGAIN)
        try:
            claims = await provider.claims(
                _redirect_uri(request), code, flow.code_verifier, flow.nonce
            )
            who = sso.identity(claims, provider.issuer, provider.settings.role_claim)
        except ProviderUnavailable:
            return _unavailable(request)
        except (ProviderRefused, sso.UnusableClaims):
            return error_page(request, None, 400, "The provider's answer did not confirm you.")
        return await self._open_session(request, provider, who, flow.next)

    async def _open_session(
        self, request: Request, provider: Provider, who: sso.Identity, target: str
    ) -> Response:
        chosen = provider.settings
        role = sso.role_for(who.groups, chosen.role_map, chosen.default_role)
        if role is None:
            return error_page(request, None, 403, NO_ROLE)
        graph = deps.graph(request)
        try:
            user = await federated_users.sign_in(graph, who, role)
        except (Forbidden, Conflict) as exc:
            return error_page(request, None, exc.status, exc.detail)
        session = await sessions.start(graph, user)
        response = RedirectResponse(target, status_code=303)
        set_session_cookie(request, response, session.secret)
        return response

    async def logout(self, request: Request) -> Response:
        """After the local session has ended: on to the provider's end-session endpoint
        when it has one, back to the sign-in page either way."""
        back = own_url(request, "/login")
        ending = None if self.provider is None else await self.provider.end_session_url(back)
        return RedirectResponse(ending or "/login", status_code=303)


def routes(provider: Provider | None) -> list[Route]:
    """Public: these routes are how a visitor gets a session; the callback is bound to
    the browser that started it by the state cookie."""
    pages = Pages(provider)
    handlers = (("login", pages.login), ("callback", pages.callback), ("logout", pages.logout))
    return [
        Route(
            f"/auth/oidc/{step}",
            handler,
            methods=["GET"],
            name=f"oidc_{step}",
            policy=PUBLIC,
            include_in_schema=False,
        )
        for step, handler in handlers
    ]
