"""What resources have in common: plain paged collections (``list``, ``iter``: see
``paging``), and
items with a ``version`` that a write may check with ``If-Match`` (``get``,
``patch``, ``delete``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from governance_client._async.paging import paginate
from governance_client._call import RequestOptions, delete, get, item_path, merge_patch
from governance_client.types import Page

if TYPE_CHECKING:
    from governance_client._async.sender import AsyncSender

T = TypeVar("T")


class AsyncResource:
    path: ClassVar[str]
    """Where the resource lives, under ``/api/v1``."""

    def __init__(self, client: AsyncSender) -> None:
        self._client = client


class AsyncPaged(AsyncResource, Generic[T]):
    """A collection that pages by ``limit`` and ``cursor`` alone."""

    async def list(
        self,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[T]:
        """One page, ordered by id."""
        page: Page[T] = await self._client._call(
            get(self.path, limit=limit, cursor=cursor), options
        )
        return page

    def iter(
        self,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[T]:
        """Every item, fetching page after page (``limit`` items each) as the loop goes on."""
        return paginate(lambda at: self.list(limit=limit, cursor=at, options=options), cursor)


class AsyncVersioned(AsyncResource, Generic[T]):
    """Items with a ``version``: pass it as ``if_match`` and a write that finds the
    item changed meanwhile raises ``PreconditionFailedError``, changing nothing."""

    async def get(self, id: str, *, options: RequestOptions | None = None) -> T:
        result: T = await self._client._call(get(item_path(self.path, id)), options)
        return result

    async def patch(
        self,
        id: str,
        changes: Mapping[str, Any],
        *,
        if_match: int | str | None = None,
        options: RequestOptions | None = None,
    ) -> T:
        """Change some fields (JSON Merge Patch: ``None`` removes a field)."""
        call = merge_patch(item_path(self.path, id), changes, if_match)
        result: T = await self._client._call(call, options)
        return result

    async def delete(
        self, id: str, *, if_match: int | str | None = None, options: RequestOptions | None = None
    ) -> None:
        await self._client._call(delete(item_path(self.path, id), if_match), options)
