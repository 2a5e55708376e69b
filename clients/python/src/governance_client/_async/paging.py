"""Following ``next_cursor``: the generator behind every ``iter`` method.

Every paged collection has the same two methods, with the same arguments: ``list``
(or ``list_<things>``) answers one page, ``iter`` (or ``iter_<things>``) every item
from that page on. ``limit`` is the page size in both (not a total: leave the loop
to stop early), ``cursor`` where to start (a page's ``next_cursor``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from governance_client.types import Page

T = TypeVar("T")


async def paginate(
    fetch: Callable[[str | None], Awaitable[Page[T]]], cursor: str | None = None
) -> AsyncIterator[T]:
    """Every item of every page from ``cursor`` on (None: the first page), fetching
    the next page only when the loop reaches it."""
    while True:
        page = await fetch(cursor)
        for item in page["items"]:
            yield item
        cursor = page["next_cursor"]
        if not cursor:
            return
