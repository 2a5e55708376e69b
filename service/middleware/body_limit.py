"""Refuse bodies over the ceiling the route's policy names, before and while they
are read."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import PayloadTooLarge
from service.http import problem_response
from service.routing import Body, policy_of


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, limits: Mapping[Body, int]) -> None:
        self.app = app
        self.limits = dict(limits)

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

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _too_large(limit)
            return message

        await self.app(scope, counting_receive, send)


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The request body is larger than {limit} bytes.")
