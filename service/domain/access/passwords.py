"""Password hashing with Argon2id (argon2-cffi), the OWASP-recommended default.

Hashing is deliberately slow (tens of milliseconds, 64 MiB), so callers run it in a
worker thread (`asyncio.to_thread`) rather than on the event loop. A sign-in for a
user that does not exist still verifies against a dummy hash, so the answer takes
as long as a wrong password and does not tell which usernames exist.
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()  # argon2id, RFC 9106 low-memory profile


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


@cache
def _dummy_hash() -> str:
    return _HASHER.hash("not-a-real-password-only-for-timing")


def verify(password_hash: str | None, password: str) -> bool:
    """Whether `password` matches; a missing hash costs as much as a wrong password."""
    try:
        return _HASHER.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than today's defaults."""
    return _HASHER.check_needs_rehash(password_hash)
