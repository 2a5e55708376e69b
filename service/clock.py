"""Timestamps are RFC 3339 strings in UTC with millisecond precision and `Z`.

Stored as strings in Neo4j too: they sort lexicographically in time order and
round-trip to clients byte for byte.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def format_time(moment: datetime) -> str:
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


def now() -> datetime:
    return datetime.now(UTC)


def now_iso() -> str:
    return format_time(now())


def iso_after(delta: timedelta) -> str:
    return format_time(now() + delta)
