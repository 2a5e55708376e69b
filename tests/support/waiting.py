"""Waiting for work that happens in the background, with a deadline.

A test never sleeps a fixed time and hopes the work is done: it names the
condition that shows the work is done and waits for that. `eventually` is the one
place in the tests that retries, so every wait has a deadline and fails saying what
it waited for and what it last saw.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def eventually(
    check: Callable[[], T],
    *,
    timeout: float = 10.0,
    interval: float = 0.05,
    what: str | None = None,
    retry_on: tuple[type[Exception], ...] = (),
) -> T:
    """Call `check` until it holds and return what it returned.

    It holds when it returns a truthy value. An AssertionError from it, or one of
    `retry_on`, means "not yet"; any other exception ends the wait at once. After
    `timeout` seconds the wait fails with an AssertionError naming `what` (or the
    check), the number of tries and the last answer or error.
    """
    retryable: tuple[type[Exception], ...] = (AssertionError, *retry_on)
    deadline = time.monotonic() + timeout
    tries = 0
    while True:
        tries += 1
        error: Exception | None = None
        try:
            answer = check()
        except retryable as exc:
            error, last = exc, f"{type(exc).__name__}: {exc}"
        else:
            if answer:
                return answer
            last = repr(answer)
        if time.monotonic() >= deadline:
            raise AssertionError(
                f"{what or _name(check)}: not so after {timeout:g}s ({tries} tries); last: {last}"
            ) from error
        time.sleep(interval)


def _name(check: Callable[[], object]) -> str:
    name = getattr(check, "__qualname__", repr(check))
    return "the condition" if name.endswith("<lambda>") else name
