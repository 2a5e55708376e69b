"""Dashboard sessions, the pure part: secrets, their hashes and the expiry rules.

The cookie holds 256 random bits; Neo4j holds only their SHA-256, so a read of the
database (or a backup) cannot be replayed as a session. A session ends after 12 h
without activity or 7 days after sign-in, whichever comes first.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

IDLE_TIMEOUT = timedelta(hours=12)
ABSOLUTE_TIMEOUT = timedelta(days=7)
# Activity is recorded at most this often, so most page views are reads only.
TOUCH_INTERVAL = timedelta(minutes=1)
COOKIE = "gov_session"
SECURE_COOKIE = "__Host-gov_session"


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def cookie_name(secure: bool) -> str:
    """`__Host-` binds the cookie to this host and path `/`, which browsers allow on https only."""
    return SECURE_COOKIE if secure else COOKIE


@dataclass(frozen=True)
class Expiry:
    idle_before: datetime
    touch_before: datetime


def expiry(now: datetime) -> Expiry:
    """Sessions last seen before `idle_before` are over; before `touch_before`, stale."""
    return Expiry(idle_before=now - IDLE_TIMEOUT, touch_before=now - TOUCH_INTERVAL)
