"""The retry policy, as pure functions (tested against ``clients/contract/vectors.json``).

A request is retried only when it failed in a way that may pass on a second try
(no answer at all, a timeout, 408, 429, or 5xx) and repeating it cannot do the work twice: GET,
HEAD, OPTIONS, PUT and DELETE are idempotent by nature; POST and PATCH only when
they carry an ``Idempotency-Key``. A 409 is a real conflict and never retried.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable

__all__ = ["backoff_delay", "parse_retry_after", "should_retry"]

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
INITIAL_DELAY_S = 0.5
MAX_DELAY_S = 8.0
# A Retry-After longer than this is waited for this long only (then the retry is made;
# the retry count still bounds the attempts), the same in all four clients.
MAX_RETRY_AFTER_S = 60.0
RETRIED_STATUSES = frozenset({408, 429})


def should_retry(method: str, status: int | None, idempotency_key: bool) -> bool:
    """Whether a failed attempt may be repeated. ``status`` is None when no answer came."""
    if status is not None and status not in RETRIED_STATUSES and status < 500:
        return False
    return method.upper() in IDEMPOTENT_METHODS or idempotency_key


def parse_retry_after(header: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value: delta-seconds or an HTTP date;
    None when absent or unreadable."""
    if header is None:
        return None
    value = header.strip()
    if value.isdigit():
        return float(int(value))
    if not value:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    now = time.time() if now is None else now
    return max(0.0, when.timestamp() - now)


def backoff_delay(
    attempt: int,
    retry_after: float | None = None,
    *,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before retry number ``attempt + 1`` (``attempt`` counts from 0).

    A server's Retry-After is honoured as given; without one the wait is drawn
    at random between 0 and a ceiling that grows exponentially (0.5 s, 1 s, 2 s
    ... up to 8 s): "full jitter", so that many clients failing together do not
    come back together. A Retry-After beyond ``MAX_RETRY_AFTER_S`` is waited for
    that long only.
    """
    if retry_after is not None:
        return min(retry_after, MAX_RETRY_AFTER_S)
    ceiling = min(MAX_DELAY_S, INITIAL_DELAY_S * 2.0 ** min(max(0, attempt), 30))
    return rand() * ceiling
