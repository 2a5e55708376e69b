"""Bearer authentication, scope checks and rate limits for every route whose
policy asks for a token (`service.routing`).

A pure ASGI middleware, so that no route can forget it. A token with a bad
checksum is refused before any database look-up; a client address that keeps
failing is answered 429 for its failures only. On a route whose statement re-checks
the token (`Policy.rechecked`), a token this process already knows skips the look-up;
that statement also compares the user's role and grants with those remembered, and a
change (`StaleAccess`) sends the request through a fresh look-up once more.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import request_clock
from service import state as app_state
from service.auth.known_tokens import KnownTokens
from service.domain.access import tokens as token_format
from service.domain.access.principal import StaleAccess
from service.driver_errors import from_driver_error
from service.errors import (
    BEARER_REALM,
    InsufficientScope,
    RateLimited,
    ServiceError,
    Unauthenticated,
    invalid_token,
)
from service.http import Header, appending, problem_response
from service.ratelimit import FailureWindow, TokenBuckets
from service.routing import Access, Policy, policy_of
from service.settings import RateLimit
from service.store import tokens as token_store

log = logging.getLogger(__name__)


class AuthMiddleware:
    def __init__(self, app: ASGIApp, rate_limit: RateLimit) -> None:
        self.app = app
        self.buckets = TokenBuckets(rate_limit.per_second, rate_limit.burst)
        self.failures = FailureWindow(rate_limit.auth_failures_per_minute)
        self.known = KnownTokens()
        self._background: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = policy_of(scope) if scope["type"] == "http" else None
        if policy is None or policy.access is not Access.TOKEN:
            await self.app(scope, receive, send)
            return
        try:
            headers = await self._authorise(scope, policy)
        except ServiceError as exc:
            await problem_response(exc, scope)(scope, receive, send)
            return

        rechecked = scope.get("state", {}).get("token_to_recheck")

        def rate_headers(start: Message) -> list[Header]:
            if rechecked is not None and start["status"] == 401:
                self.known.forget(rechecked)  # its statement refused it
            return [(k.lower().encode(), v.encode()) for k, v in headers.items()]

        try:
            await self.app(scope, receive, appending(send, rate_headers))
        except StaleAccess:
            if rechecked is None:
                raise
            await self._afresh(scope, receive, send, policy, rechecked)

    async def _afresh(
        self, scope: Scope, receive: Receive, send: Send, policy: Policy, digest: str
    ) -> None:
        """The remembered caller's role or grants changed since (its statement said so,
        having walked nothing, before any answer began): look the token up again and
        serve the request once more with what it holds now."""
        self.known.forget(digest)
        scope["state"].pop("token_to_recheck", None)
        try:
            headers = await self._authorise(scope, policy)
        except ServiceError as exc:
            await problem_response(exc, scope)(scope, receive, send)
            return
        fresh = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
        await self.app(scope, receive, appending(send, lambda _: fresh))

    async def _authorise(self, scope: Scope, policy: Policy) -> dict[str, str]:
        secret = _bearer(Headers(scope=scope).get("authorization"))
        if secret is None:
            raise Unauthenticated(
                "This operation needs an API token: send `Authorization: Bearer <token>`.",
                headers={"WWW-Authenticate": BEARER_REALM},
            )
        state: dict[str, Any] = scope.setdefault("state", {})
        if not token_format.is_well_formed(secret):
            raise self._failed(scope)
        digest = token_format.digest(secret)
        known = self.known.get(digest) if policy.rechecked else None
        if known is not None:
            principal = known.principal
            stale = known.touch_due(token_store.TOUCH_INTERVAL.total_seconds())
            state["token_to_recheck"] = digest
        else:
            found = await self._look_up(state, secret)
            if found is None:
                self.known.forget(digest)
                raise self._failed(scope)
            principal, stale = found
            self.known.remember(digest, principal)
        needed = policy.needs
        if (principal.scope if policy.per_domain else principal.global_scope) < needed:
            raise InsufficientScope(
                f"This operation needs the {needed.label!r} scope.",
                headers={
                    "WWW-Authenticate": BEARER_REALM
                    + f', error="insufficient_scope", scope="{needed.label}"'
                },
            )
        decision = self.buckets.take(principal.token_id)
        if not decision.allowed:
            raise RateLimited("Rate limit exceeded for this token.", headers=decision.headers())
        state["principal"] = principal
        if stale:
            self._touch_later(state, principal.token_id)
        return decision.headers()

    def _failed(self, scope: Scope) -> ServiceError:
        """A failed attempt: 401, or 429 once the client address failed too often.

        Only failures are throttled: a valid token from the same address (many
        clients share one behind a proxy) is never refused because others failed.
        """
        client = (scope.get("client") or ("unknown", 0))[0]
        wait = self.failures.blocked_for(client)
        if wait:
            return RateLimited(
                "Too many failed authentication attempts.", headers={"Retry-After": str(wait)}
            )
        self.failures.record(client)
        return invalid_token()

    async def _look_up(self, state: dict[str, Any], secret: str) -> Any:
        try:
            return await token_store.authenticate(app_state.among(state).graph, secret)
        except Exception as exc:
            mapped = from_driver_error(exc)
            if mapped is None:
                raise
            raise mapped from exc

    def _touch_later(self, state: dict[str, Any], token_id: str) -> None:
        """Record `last_used_at` without making the request wait for a write."""

        async def touch() -> None:
            request_clock.detach()
            try:
                await token_store.touch(app_state.among(state).graph, token_id)
            except Exception:  # a missed touch is harmless; the next request retries
                log.warning("could not record token use", exc_info=True)

        task = asyncio.create_task(touch())
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def _bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip()
