"""The asyncio client: ``_client.py``'s twin, method for method."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx

from governance_client import _calls as calls
from governance_client._async_governance import AsyncPolicies, AsyncQuality, AsyncQuery
from governance_client._base import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S, BaseClient
from governance_client._calls import MAX_BULK_EDGES, Call, EdgeLike
from governance_client._errors import error_from_response
from governance_client._paging import apaginate as _paginate
from governance_client.types import (
    Asset,
    BulkResult,
    Column,
    Direction,
    Edge,
    Event,
    LineageGraph,
    ManifestSummary,
    Page,
    PropertyValue,
    ServiceInfo,
    Token,
    TokenCreated,
)

T = TypeVar("T")


class AsyncClient(BaseClient):
    """The asyncio client for the Data Governance Service: ``Client``'s twin, with
    ``await`` on every operation and ``async for`` over ``iter``/``iter_edges``.

    ``base_url`` and ``token`` default to the ``GOVERNANCE_URL`` and
    ``GOVERNANCE_TOKEN`` environment variables; the URL may be given with or
    without its ``/api/v1``. Operations are grouped by resource:
    ``client.assets``, ``client.lineage``, ``client.events``, ``client.tokens``,
    ``client.policies``, ``client.quality``, ``client.query``.

    Use it as an async context manager, or call ``aclose()``, to release its connections.
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
            headers=headers,
            rand=rand,
        )
        self._http = httpx.AsyncClient(timeout=timeout, transport=transport, follow_redirects=False)
        self._sleep = sleep
        self.assets = AsyncAssets(self)
        self.lineage = AsyncLineage(self)
        self.tokens = AsyncTokens(self)
        self.events = AsyncEvents(self)
        self.policies = AsyncPolicies(self)
        self.quality = AsyncQuality(self)
        self.query = AsyncQuery(self)

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

    async def info(self) -> ServiceInfo:
        """``GET /api/v1``: the service's name and version (needs no token)."""
        return await self._call(calls.service_info())

    async def openapi(self) -> dict[str, Any]:
        """The service's OpenAPI 3.1 document (needs no token)."""
        return await self._call(calls.openapi())

    async def _call(self, call: Call[T]) -> T:
        return call.parse(await self._send(call))

    async def _send(self, call: Call[Any]) -> httpx.Response:
        request = self._build_request(self._http, call)
        attempt = 0
        while True:
            try:
                response = await self._http.send(request)
            except httpx.TransportError as exc:
                error, delay = self._transport_failure(exc, request, attempt, safe=call.safe)
                if delay is None:
                    raise error from exc
            else:
                if response.is_success:
                    return response
                failure = error_from_response(response)
                delay = self._retry_delay(
                    request, attempt, response.status_code, failure.retry_after, safe=call.safe
                )
                if delay is None:
                    raise failure
            await self._sleep(delay)
            attempt += 1


class AsyncAssets:
    """``/assets``: data sets, models, dashboards and anything else lineage can link."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def list(
        self,
        *,
        type: str | None = None,
        platform: str | None = None,
        tags: str | Sequence[str] | None = None,
        owner: str | None = None,
        q: str | None = None,
        placeholder: bool | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Asset]:
        """One page of assets ordered by id. ``tags``: every one must match;
        ``q``: a case-insensitive substring of id, name or description."""
        return await self._client._call(
            calls.list_assets(
                type=type,
                platform=platform,
                tags=tags,
                owner=owner,
                q=q,
                placeholder=placeholder,
                limit=limit,
                cursor=cursor,
            )
        )

    def iter(
        self,
        *,
        type: str | None = None,
        platform: str | None = None,
        tags: str | Sequence[str] | None = None,
        owner: str | None = None,
        q: str | None = None,
        placeholder: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[Asset]:
        """Every matching asset (``async for``), fetching page after page as the loop goes on."""
        return _paginate(
            lambda cursor: self.list(
                type=type,
                platform=platform,
                tags=tags,
                owner=owner,
                q=q,
                placeholder=placeholder,
                limit=page_size,
                cursor=cursor,
            )
        )

    async def create(
        self,
        id: str,
        *,
        name: str,
        type: str,
        platform: str | None = None,
        description: str | None = None,
        owners: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        columns: Sequence[Column | Mapping[str, Any]] | None = None,
        properties: Mapping[str, PropertyValue] | None = None,
        idempotency_key: str | None = None,
    ) -> Asset:
        """Create an asset; ``ConflictError`` if a real asset has that id (a
        placeholder made by lineage is claimed and keeps its edges)."""
        fields = calls.asset_fields(
            name=name,
            type=type,
            platform=platform,
            description=description,
            owners=owners,
            tags=tags,
            columns=columns,
            properties=properties,
        )
        return await self._client._call(calls.create_asset(id, fields, idempotency_key))

    async def get(self, id: str) -> Asset:
        return await self._client._call(calls.get_asset(id))

    async def put(
        self,
        id: str,
        *,
        name: str,
        type: str,
        platform: str | None = None,
        description: str | None = None,
        owners: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        columns: Sequence[Column | Mapping[str, Any]] | None = None,
        properties: Mapping[str, PropertyValue] | None = None,
        if_match: int | str | None = None,
    ) -> Asset:
        """Create or wholly replace an asset (fields left out are cleared).
        ``if_match=version``: ``PreconditionFailedError`` if it changed meanwhile."""
        fields = calls.asset_fields(
            name=name,
            type=type,
            platform=platform,
            description=description,
            owners=owners,
            tags=tags,
            columns=columns,
            properties=properties,
        )
        return await self._client._call(calls.put_asset(id, fields, if_match))

    async def patch(
        self, id: str, changes: Mapping[str, Any], *, if_match: int | str | None = None
    ) -> Asset:
        """Change some fields (JSON Merge Patch: ``None`` removes a field)."""
        return await self._client._call(calls.patch_asset(id, changes, if_match))

    async def delete(self, id: str, *, if_match: int | str | None = None) -> None:
        """Delete an asset and its lineage edges."""
        await self._client._call(calls.delete_asset(id, if_match))


class AsyncLineage:
    """``/lineage``: directed edges ``source -> target`` and traversals over them."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def add_edge(
        self,
        source: str,
        target: str,
        transformation: str | None = None,
        *,
        strict: bool = False,
        idempotency_key: str | None = None,
    ) -> Edge:
        """Create or update one edge. Unknown ids become placeholder assets unless
        ``strict``, which raises ``ValidationError`` (``unknown_assets``)."""
        return await self._client._call(
            calls.add_edge(source, target, transformation, strict, idempotency_key)
        )

    async def bulk(
        self,
        edges: Iterable[EdgeLike],
        *,
        strict: bool = False,
        idempotency_key: str | None = None,
    ) -> BulkResult:
        """Write 1 to 10,000 edges in one atomic request. See ``push_bulk`` for more."""
        return await self._client._call(calls.bulk(edges, strict, idempotency_key))

    async def push_bulk(
        self,
        edges: Iterable[EdgeLike],
        *,
        strict: bool = False,
        chunk_size: int = MAX_BULK_EDGES,
    ) -> BulkResult:
        """Write any number of edges, ``chunk_size`` per request, and add up the
        results. Each request is atomic; the whole is not, but repeating it is safe."""
        size = calls.check_chunk_size(chunk_size)
        total = calls.empty_bulk_result()
        for chunk in calls.chunked(edges, size):
            total = calls.add_bulk_results(total, await self.bulk(chunk, strict=strict))
        return total

    async def upload_manifest(
        self,
        manifest: str | os.PathLike[str] | bytes,
        *,
        project: str | None = None,
        prune: bool = True,
        idempotency_key: str | None = None,
    ) -> ManifestSummary:
        """Ingest a dbt ``manifest.json`` (a path, or its bytes, gzipped or not):
        its models, sources, seeds and snapshots become assets, their dependencies
        edges and their tests quality rules. ``prune`` removes what an earlier
        upload for the same ``project`` made and this one no longer has. Sent
        gzipped, with a 600 s timeout; safe to repeat, so it is retried."""
        return await self._client._call(
            calls.upload_manifest(
                manifest, project=project, prune=prune, idempotency_key=idempotency_key
            )
        )

    async def list_edges(
        self,
        *,
        source: str | None = None,
        target: str | None = None,
        origin: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Edge]:
        """One page of edges ordered by (source, target)."""
        return await self._client._call(
            calls.list_edges(
                source=source, target=target, origin=origin, limit=limit, cursor=cursor
            )
        )

    def iter_edges(
        self,
        *,
        source: str | None = None,
        target: str | None = None,
        origin: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[Edge]:
        """Every matching edge (``async for``), fetching page after page as the loop goes on."""
        return _paginate(
            lambda cursor: self.list_edges(
                source=source, target=target, origin=origin, limit=page_size, cursor=cursor
            )
        )

    async def delete_edge(self, source: str, target: str) -> None:
        """Delete one edge; ``NotFoundError`` if there is none."""
        await self._client._call(calls.delete_edge(source, target))

    async def get(
        self,
        id: str,
        *,
        direction: Direction | None = None,
        depth: int | None = None,
        limit: int | None = None,
    ) -> LineageGraph:
        """The lineage graph around an asset: ``direction`` both (default), upstream
        or downstream; ``depth`` hops (1-50, default 5); at most ``limit`` nodes."""
        return await self._client._call(
            calls.traverse(id, direction=direction, depth=depth, limit=limit)
        )

    async def upstream(
        self, id: str, *, depth: int | None = None, limit: int | None = None
    ) -> LineageGraph:
        """What ``id`` is made from, to ``depth`` hops."""
        return await self._client._call(
            calls.traverse(id, direction=None, depth=depth, limit=limit, path="/upstream")
        )

    async def downstream(
        self, id: str, *, depth: int | None = None, limit: int | None = None
    ) -> LineageGraph:
        """What is made from ``id``, to ``depth`` hops."""
        return await self._client._call(
            calls.traverse(id, direction=None, depth=depth, limit=limit, path="/downstream")
        )


class AsyncTokens:
    """``/tokens``: API tokens (needs the admin scope)."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def list(self, *, limit: int | None = None, cursor: str | None = None) -> Page[Token]:
        return await self._client._call(calls.list_tokens(limit=limit, cursor=cursor))

    def iter(self, *, page_size: int | None = None) -> AsyncIterator[Token]:
        return _paginate(lambda cursor: self.list(limit=page_size, cursor=cursor))

    async def create(
        self, name: str, *, scopes: Sequence[str], expires_in_days: int | None = None
    ) -> TokenCreated:
        """Create a token; its secret is in ``result["token"]`` and nowhere else, ever.
        Not retried (see README, Retries)."""
        return await self._client._call(calls.create_token(name, scopes, expires_in_days))

    async def get(self, id: str) -> Token:
        return await self._client._call(calls.get_token(id))

    async def revoke(self, id: str) -> None:
        """Revoke a token: it stops working on the next request."""
        await self._client._call(calls.revoke_token(id))


class AsyncEvents:
    """``/events``: the service's event log, oldest first (needs the read scope)."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def list(
        self,
        *,
        after: int | None = None,
        types: str | Sequence[str] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Event]:
        """One page of events with ``seq`` greater than ``after``. ``types``: event
        types or patterns such as ``"asset.*"``; any one must match."""
        return await self._client._call(
            calls.list_events(after=after, types=types, limit=limit, cursor=cursor)
        )

    def iter(
        self,
        *,
        after: int = 0,
        types: str | Sequence[str] | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[Event]:
        """Every event after ``after``, fetching page after page as the loop goes on.
        It ends at the newest event; remember the last ``seq`` to resume later."""
        return _paginate(
            lambda cursor: self.list(
                after=None if cursor else after, types=types, limit=page_size, cursor=cursor
            )
        )
