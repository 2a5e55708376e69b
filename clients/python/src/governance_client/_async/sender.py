"""How a call reaches the service: the connection pool and the retry loop.

Resources hold an ``AsyncSender`` (the client is one) and know nothing else of the
client, so this module sits below them and the client above: the imports run one
way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import httpx

from governance_client._base import BaseClient
from governance_client._call import Call, RequestOptions
from governance_client._errors import error_from_response
from governance_client._response import record

T = TypeVar("T")


class AsyncSender(BaseClient):
    """Sends ``Call``s over one ``httpx`` client, retrying them as the policy allows."""

    def __init__(
        self,
        *,
        base_url: str | None,
        token: str | None,
        timeout: float | httpx.Timeout | None,
        max_retries: int,
        transport: httpx.AsyncBaseTransport | None,
        headers: Mapping[str, str] | None,
        sleep: Callable[[float], Awaitable[None]],
        rand: Callable[[], float] | None,
    ) -> None:
        super().__init__(
            base_url=base_url,
            token=token,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
            rand=rand,
        )
        self._http = httpx.AsyncClient(timeout=timeout, transport=transport, follow_redirects=False)
        self._sleep = sleep

    async def _call(self, call: Call[T], options: RequestOptions | None = None) -> T:
        response = await self._send(call.with_options(options))
        record(response)
        return call.parse(response)

    async def _send(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        """The successful answer to ``call``, retried as the policy allows. With
        ``stream`` the body is left unread, for the caller to read and close."""
        request = self._build_request(self._http, call)
        attempt = 0
        while True:
            try:
                response = await self._http.send(request, stream=stream)
            except httpx.TransportError as exc:
                error, delay = self._transport_failure(call, exc, request, attempt)
                if delay is None:
                    raise error from exc
            else:
                if response.is_success:
                    return response
                if stream:
                    await response.aread()
                    await response.aclose()
                failure = error_from_response(response)
                delay = self._retry_delay(
                    call, request, attempt, response.status_code, failure.retry_after
                )
                if delay is None:
                    raise failure
            await self._sleep(delay)
            attempt += 1
