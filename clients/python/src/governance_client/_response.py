"""``APIResponse``: an operation's answer with its HTTP status and headers, for
``client.with_raw_response``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Generic, TypeVar

import httpx

T = TypeVar("T")

# While an operation runs under ``recording()``, the client puts each answer here.
_RECORDED: ContextVar[list[httpx.Response] | None] = ContextVar(
    "governance_client_recorded", default=None
)


class APIResponse(Generic[T]):
    """An answer as the service sent it: ``status_code``, ``headers`` (``ETag``,
    ``Location``, ``RateLimit-*``), ``request_id``, and ``parse()`` for the value the
    operation returns. ``http_response`` is the ``httpx.Response`` itself."""

    def __init__(self, value: T, http_response: httpx.Response) -> None:
        self._value = value
        self.http_response = http_response

    def __repr__(self) -> str:
        return f"<APIResponse [{self.status_code}] {self.http_response.request.url}>"

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> str | None:
        value: str | None = self.headers.get("x-request-id")
        return value

    @property
    def etag(self) -> str | None:
        value: str | None = self.headers.get("etag")
        return value

    def parse(self) -> T:
        return self._value


@contextlib.contextmanager
def recording() -> Iterator[list[httpx.Response]]:
    """Collect the answers of the operations run inside the block (this task only)."""
    seen: list[httpx.Response] = []
    token = _RECORDED.set(seen)
    try:
        yield seen
    finally:
        _RECORDED.reset(token)


def record(response: httpx.Response) -> None:
    seen = _RECORDED.get()
    if seen is not None:
        seen.append(response)


def answer(value: T, seen: list[httpx.Response]) -> APIResponse[T]:
    if not seen:
        raise RuntimeError("the operation sent no request, so it has no raw response")
    return APIResponse(value, seen[-1])
