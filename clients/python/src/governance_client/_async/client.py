"""The client object: construction, the resources, the service-level operations
and ``with_raw_response``. How a request is sent and retried is ``AsyncSender``'s."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from functools import cached_property
from types import TracebackType
from typing import Any, Self

import httpx

from governance_client import _calls as calls
from governance_client._async.access import AsyncDomains, AsyncTeams
from governance_client._async.admin import AsyncTokens, AsyncUsers
from governance_client._async.catalog import AsyncAssets, AsyncLineage
from governance_client._async.events import AsyncEvents, AsyncWebhooks
from governance_client._async.governance import AsyncPolicies, AsyncQuality, AsyncQuery
from governance_client._async.raw import (
    AsyncAssetsWithRawResponse,
    AsyncDomainsWithRawResponse,
    AsyncEventsWithRawResponse,
    AsyncLineageWithRawResponse,
    AsyncPoliciesWithRawResponse,
    AsyncQualityWithRawResponse,
    AsyncQueryWithRawResponse,
    AsyncTeamsWithRawResponse,
    AsyncTokensWithRawResponse,
    AsyncUsersWithRawResponse,
    AsyncWebhooksWithRawResponse,
    raw,
)
from governance_client._async.sender import AsyncSender
from governance_client._base import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S
from governance_client._call import RequestOptions
from governance_client.types import Health, Me, ServiceInfo


class AsyncClient(AsyncSender):
    """A client for the Data Governance Service.

    ``base_url`` and ``token`` default to the ``GOVERNANCE_URL`` and
    ``GOVERNANCE_TOKEN`` environment variables; the URL may be given with or
    without its ``/api/v1``. ``timeout`` is per attempt (seconds, or an
    ``httpx.Timeout``; None for no limit); ``max_retries`` how many times a failed
    request is tried again. Operations are grouped by resource: ``assets``,
    ``lineage``, ``events``, ``webhooks``, ``policies``, ``quality``, ``query``,
    ``tokens``, ``users``, ``teams`` and ``domains``; each takes ``options=``
    (``RequestOptions``) for per-call settings. ``with_raw_response`` mirrors them, answering an
    ``APIResponse`` with the status and headers.

    Use it as a context manager, or call ``aclose()``, to release its connections.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        token: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rand: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(
            base_url=base_url,
            token=token,
            timeout=timeout,
            max_retries=max_retries,
            transport=transport,
            headers=headers,
            sleep=sleep,
            rand=rand,
        )
        self.assets = AsyncAssets(self)
        self.lineage = AsyncLineage(self)
        self.events = AsyncEvents(self)
        self.webhooks = AsyncWebhooks(self)
        self.policies = AsyncPolicies(self)
        self.quality = AsyncQuality(self)
        self.query = AsyncQuery(self)
        self.tokens = AsyncTokens(self)
        self.users = AsyncUsers(self)
        self.teams = AsyncTeams(self)
        self.domains = AsyncDomains(self)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    @cached_property
    def with_raw_response(self) -> AsyncRawResponses:
        """The same operations, each answering an ``APIResponse``: ``status_code``,
        ``headers`` (``ETag``, ``Location``, rate limits) and ``parse()`` for the value.
        For example ``client.with_raw_response.assets.put(...)`` tells a created asset
        (201) from a replaced one (200)."""
        return AsyncRawResponses(self)

    async def info(self, *, options: RequestOptions | None = None) -> ServiceInfo:
        """``GET /api/v1``: the service's name and version (needs no token)."""
        return await self._call(calls.service_info(), options)

    async def openapi(self, *, options: RequestOptions | None = None) -> dict[str, Any]:
        """The service's OpenAPI 3.1 document (needs no token)."""
        return await self._call(calls.openapi(), options)

    async def health(self, *, options: RequestOptions | None = None) -> Health:
        """``GET /healthz``: ``{"status": "ok"}`` while the process is up."""
        return await self._call(calls.health(), options)

    async def readiness(self, *, options: RequestOptions | None = None) -> Health:
        """``GET /readyz``: ``{"status": "ready"}`` when the database is reachable and
        its schema applied; ``UnavailableError`` (503) otherwise, after the retries."""
        return await self._call(calls.readiness(), options)

    async def metrics(self, *, options: RequestOptions | None = None) -> str:
        """``GET /metrics``: the Prometheus text exposition."""
        return await self._call(calls.metrics(), options)

    async def me(self, *, options: RequestOptions | None = None) -> Me:
        """The calling token and the user it belongs to (None for a token made by
        the command line), with the user's ``teams`` and ``domain_roles``. Any valid
        token may ask."""
        return await self._call(calls.me(), options)


class AsyncRawResponses:
    """``client.with_raw_response``: the client's operations that send one request,
    each answering an ``APIResponse``."""

    def __init__(self, client: AsyncClient) -> None:
        self.info = raw(client.info)
        self.openapi = raw(client.openapi)
        self.health = raw(client.health)
        self.readiness = raw(client.readiness)
        self.metrics = raw(client.metrics)
        self.me = raw(client.me)
        self.assets = AsyncAssetsWithRawResponse(client.assets)
        self.lineage = AsyncLineageWithRawResponse(client.lineage)
        self.events = AsyncEventsWithRawResponse(client.events)
        self.webhooks = AsyncWebhooksWithRawResponse(client.webhooks)
        self.policies = AsyncPoliciesWithRawResponse(client.policies)
        self.quality = AsyncQualityWithRawResponse(client.quality)
        self.query = AsyncQueryWithRawResponse(client.query)
        self.tokens = AsyncTokensWithRawResponse(client.tokens)
        self.users = AsyncUsersWithRawResponse(client.users)
        self.teams = AsyncTeamsWithRawResponse(client.teams)
        self.domains = AsyncDomainsWithRawResponse(client.domains)
