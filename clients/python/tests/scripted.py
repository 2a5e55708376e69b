"""A scripted transport for the unit tests: answers from a list, remembers requests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

Reply = httpx.Response | Callable[[httpx.Request], httpx.Response]


class Script:
    """Answers requests from a list, in order, and remembers them."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        reply = self.replies.pop(0)
        return reply(request) if callable(reply) else reply


def refuse(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


def time_out(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def ok(body: Any = None, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json={} if body is None else body)


def problem(status: int, code: str, **extra: Any) -> httpx.Response:
    headers = {"X-Request-ID": "rid", **extra.pop("headers", {})}
    body = {"status": status, "code": code, "title": "t", "detail": "d", **extra}
    return httpx.Response(status, json=body, headers=headers)
