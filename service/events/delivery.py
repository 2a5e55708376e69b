"""One HTTP delivery to a webhook, connected only to an address that passed the
SSRF rules at the moment of connecting (DNS answers can change between the
check at creation and now). No redirects are followed; the receiver's body is
never kept or shown; a delivery waits at most the configured timeout."""

from __future__ import annotations

import asyncio
import socket
import ssl
import typing
from dataclasses import dataclass

import httpcore

from service.domain.webhook_retry import parse_retry_after
from service.domain.webhook_targets import TargetRefused, address_allowed, check_url

MAX_RESPONSE_BYTES = 64 * 1024
# Attempts the dispatcher keeps under way, every receiver together. The pool holds
# more connections than that (the rest serve `POST /webhooks/{id}/test`), so an
# attempt never waits for a connection that another receiver's attempt holds.
MAX_IN_FLIGHT = 100
MAX_CONNECTIONS = MAX_IN_FLIGHT + 20


@dataclass(frozen=True)
class Outcome:
    status: int | None
    error: str | None
    retry_after_s: float | None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves the host itself and connects to the first allowed address; refuses
    outright when any address it resolves to is not allowed."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        try:
            infos = await asyncio.wait_for(
                loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout
            )
        except (OSError, TimeoutError) as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}") from exc
        addresses = [str(info[4][0]) for info in infos]
        refused = [a for a in addresses if not address_allowed(a, self.allow_private)]
        if refused or not addresses:
            raise httpcore.ConnectError(f"{host} resolves to an address that is not allowed")
        return await self._inner.connect_tcp(
            addresses[0],
            port,
            timeout=timeout,
            local_address=local_address,
            socket_options=socket_options,
        )

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class Deliverer:
    def __init__(self, allow_private: bool, timeout_s: float) -> None:
        self.allow_private = allow_private
        self.timeout_s = timeout_s
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl.create_default_context(),
            network_backend=GuardedBackend(allow_private),
            max_connections=MAX_CONNECTIONS,
            keepalive_expiry=30,
        )

    async def post(self, url: str, headers: dict[str, str], body: bytes) -> Outcome:
        try:
            check_url(url, self.allow_private)
        except TargetRefused as exc:
            return Outcome(None, f"refused: {exc}", None)
        extensions = {"timeout": {k: self.timeout_s for k in ("connect", "read", "write", "pool")}}
        try:
            async with asyncio.timeout(self.timeout_s):
                async with self._pool.stream(
                    "POST", url, headers=list(headers.items()), content=body, extensions=extensions
                ) as response:
                    await _drain(response)
                    retry_after = parse_retry_after(_header(response, b"retry-after"))
                    return Outcome(response.status, None, retry_after)
        except TimeoutError:
            return Outcome(None, f"no answer within {self.timeout_s:.0f} s", None)
        except httpcore.ConnectError as exc:
            return Outcome(None, f"connection failed: {exc}", None)
        except (
            httpcore.NetworkError,
            httpcore.ProtocolError,
            httpcore.TimeoutException,
            httpcore.UnsupportedProtocol,
            UnicodeError,  # a host no resolver can encode: the delivery fails, the round goes on
        ) as exc:
            return Outcome(None, f"{type(exc).__name__}: {exc}", None)

    async def close(self) -> None:
        await self._pool.aclose()


async def _drain(response: httpcore.Response) -> None:
    """Read a little of the body (so the connection can be reused) and drop it."""
    read = 0
    async for chunk in response.aiter_stream():
        read += len(chunk)
        if read > MAX_RESPONSE_BYTES:
            break


def _header(response: httpcore.Response, name: bytes) -> str | None:
    for key, value in response.headers:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None
