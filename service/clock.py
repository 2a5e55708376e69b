"""Timestamps are RFC 3339 strings in UTC with millisecond precision and `Z`.

Stored as strings in Neo4j too: they sort lexicographically in time order and
round-trip to clients byte for byte.
"""

from __future__ import annotations

from datetime import UTC, datetime


def format_time(moment: datetime) -> str:
    """`moment` in UTC, e.g. `2026-03-01T10:00:00.123Z`: always a 4-digit year (strftime's
    `%Y` gives `5` for year 5 on Linux, which would sort after `2026`), microseconds cut."""
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    return utc.isoformat(timespec="milliseconds") + "Z"


def now() -> datetime:
    return datetime.now(UTC)


def now_iso() -> str:
    return format_time(now())
