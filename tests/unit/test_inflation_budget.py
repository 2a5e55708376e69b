"""The process-wide bound on gzip uploads inflating at once: never more than the
slots, a waiter past the wait is 503 `server_busy` with Retry-After, and a turn
is held until its worker thread ends even when the request is abandoned."""

from __future__ import annotations

import asyncio
import threading

import pytest

from service.errors import Unavailable
from service.store.inflation import InflationBudget


def test_never_more_turns_than_slots_and_every_one_runs() -> None:
    async def scenario() -> tuple[list[int], int]:
        budget = InflationBudget(slots=2, wait_s=10)
        lock = threading.Lock()
        now = 0
        seen: list[int] = []

        def work(n: int) -> int:
            nonlocal now
            with lock:
                now += 1
                seen.append(now)
            threading.Event().wait(0.05)
            with lock:
                now -= 1
            return n

        done = await asyncio.gather(*(budget.run(work, n) for n in range(6)))
        assert done == list(range(6))
        return seen, budget.peak

    seen, peak = asyncio.run(scenario())
    assert max(seen) == peak == 2


def test_a_wait_past_the_limit_is_503_server_busy() -> None:
    async def scenario() -> Unavailable:
        budget = InflationBudget(slots=1, wait_s=0.1)
        release = threading.Event()
        first = asyncio.ensure_future(budget.run(release.wait, 5))
        await asyncio.sleep(0)
        with pytest.raises(Unavailable) as refused:
            await budget.run(lambda: None)
        release.set()
        assert await first is True
        assert budget.running == 0
        return refused.value

    error = asyncio.run(scenario())
    assert error.status == 503
    assert error.code == "server_busy"
    assert error.headers["Retry-After"] == "1"


def test_an_abandoned_turn_is_held_until_its_thread_ends() -> None:
    async def scenario() -> None:
        budget = InflationBudget(slots=1, wait_s=5)
        release = threading.Event()
        first = asyncio.ensure_future(budget.run(release.wait, 5))
        await asyncio.sleep(0.05)
        first.cancel()
        await asyncio.sleep(0.05)
        assert budget.running == 1  # the thread still inflates: its memory is still held
        release.set()
        assert await budget.run(lambda: "next") == "next"
        assert budget.running == 0 and budget.peak == 1

    asyncio.run(scenario())
