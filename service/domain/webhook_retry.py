"""When a failed webhook delivery is tried again."""

from __future__ import annotations

import random
from datetime import timedelta

# About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 24 h after each failure.
DEFAULT_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 86400.0)
JITTER = 0.2
MAX_RETRY_AFTER = timedelta(hours=24)


def next_delay(
    attempt: int,
    schedule: tuple[float, ...],
    retry_after_s: float | None,
    rng: random.Random | None = None,
) -> float | None:
    """Seconds until attempt `attempt + 1`, or None when the schedule is spent.

    `attempt` counts the attempts made so far (1 after the first). A receiver's
    Retry-After is honoured when it asks for longer than the schedule would wait.
    """
    if attempt > len(schedule):
        return None
    base = schedule[attempt - 1]
    jittered = base * (1 + (rng or random).uniform(-JITTER, JITTER))
    if retry_after_s is not None:
        return max(jittered, min(retry_after_s, MAX_RETRY_AFTER.total_seconds()))
    return jittered


def parse_retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    from email.utils import parsedate_to_datetime

    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from service import clock

    return max(0.0, (moment - clock.now()).total_seconds())
