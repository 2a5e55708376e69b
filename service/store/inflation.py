"""How many gzip uploads one process inflates and parses at once."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any, TypeVar

from service.errors import Unavailable

T = TypeVar("T")


class InflationBudget:
    """At most `slots` gzip uploads inflate and parse at once in this process. A run
    results upload may take up to the manifest limit (256 MiB) and more again as parsed
    JSON, a manifest (which streams) about its compiled SQL, so six at once would
    otherwise take gigabytes. Others wait their turn for up to `wait_s` seconds, then
    are refused with 503 `server_busy`. A turn ends when the worker
    thread ends, even if the request was abandoned meanwhile."""

    def __init__(self, slots: int, wait_s: float) -> None:
        self._slots = asyncio.Semaphore(max(1, slots))
        self.wait_s = wait_s
        self.running = 0
        self.peak = 0  # most turns ever held at once (for tests and operators)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            async with asyncio.timeout(self.wait_s):
                await self._slots.acquire()
        except TimeoutError:
            raise Unavailable(
                code="server_busy",
                headers={"Retry-After": str(max(1, math.ceil(self.wait_s)))},
            ) from None
        self.running += 1
        self.peak = max(self.peak, self.running)
        work = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        work.add_done_callback(self._release)
        return await asyncio.shield(work)

    def _release(self, _: object) -> None:
        self.running -= 1
        self._slots.release()
