"""What a password must be: 12 to 256 characters, not only whitespace, not holding
the username, and not one of the passwords people pick most.

The common passwords are zxcvbn's list of the 30,000 most frequent ones in leaked
password sets (the `zxcvbn` package, MIT), read from the package rather than typed
here; only those long enough to pass the length rule are kept, compared ignoring
case. The same rules hold wherever a password is set: the API, the dashboard, the
CLI and the first admin's `GOVERNANCE_ADMIN_PASSWORD`.
"""

from __future__ import annotations

from functools import cache

from service.models.users import PASSWORD_MAX as MAX_LENGTH
from service.models.users import PASSWORD_MIN as MIN_LENGTH


@cache
def _common() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS  # type: ignore[import-untyped]

    return frozenset(p.lower() for p in FREQUENCY_LISTS["passwords"] if len(p) >= MIN_LENGTH)


def password_problem(password: str, username: str) -> str | None:
    """Why `password` may not be `username`'s password (the rule it breaks), or None."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        return f"must be {MIN_LENGTH} to {MAX_LENGTH} characters long"
    if not password.strip():
        return "must not be only whitespace"
    if username and username.casefold() in password.casefold():
        return "must not contain the username"
    if password.lower() in _common():
        return "is one of the most common passwords"
    return None
