"""Refuse bodies over the ceiling the route's policy names, before and while they
are read, and bodies that take longer than the body timeout to arrive (a client
that sends half a body and stalls must not hold the connection forever)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import PayloadTooLarge, RequestTimeout
from service.http import problem_response
from service.routing import Body, policy_of


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, limits: Mapping[Body, int], timeout_s: float = 30.0) -> None:
        self.app = app
        self.limits = dict(limits)
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits[policy_of(scope).body]
        scope.setdefault("state", {})["body_limit"] = limit  # gzip bodies inflate up to it
        declared = Headers(scope=scope).get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            await problem_response(_too_large(limit), scope)(scope, receive, send)
            return
        seen = 0
        complete = False
        deadline = asyncio.get_running_loop().time() + self.timeout_s

        async def counting_receive() -> Message:
            nonlocal seen, complete
            if complete:  # after the body only a disconnect comes: no deadline
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise _too_slow(self.timeout_s) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _too_large(limit)
                complete = not message.get("more_body", False)
            else:
                complete = True  # the client went away
            return message

        await self.app(scope, counting_receive, send)


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request body is larger than {limit} bytes.")


def _too_slow(timeout_s: float) -> RequestTimeout:
    return RequestTimeout(
        f"The request body did not arrive within {timeout_s:g} seconds.",
        code="body_timeout",
        headers={"Connection": "close"},
    )
