"""Following ``next_cursor``: the generator behind every ``iter`` method."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from governance_client.types import Page

T = TypeVar("T")


async def paginate(fetch: Callable[[str | None], Awaitable[Page[T]]]) -> AsyncIterator[T]:
    """Every item of every page, fetching the next page only when the loop reaches it."""
    cursor: str | None = None
    while True:
        page = await fetch(cursor)
        for item in page["items"]:
            yield item
        cursor = page["next_cursor"]
        if not cursor:
            return
