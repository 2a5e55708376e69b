"""Actors as the audit trail records them (`token:<id>`, `user:<id>`, `system`) and
the words a person reads for them: the recorded string stays the key, since a token
or user deleted since is still named by it."""

from __future__ import annotations

from collections.abc import Iterable

TOKEN_PREFIX = "token:"  # noqa: S105 (an actor prefix, not a secret)
USER_PREFIX = "user:"


def split(actors: Iterable[str]) -> tuple[list[str], list[str]]:
    """The token ids and user ids among `actors`, each sorted once."""
    tokens = {a.removeprefix(TOKEN_PREFIX) for a in actors if a.startswith(TOKEN_PREFIX)}
    users = {a.removeprefix(USER_PREFIX) for a in actors if a.startswith(USER_PREFIX)}
    return sorted(tokens), sorted(users)


def label(username: str | None, token_name: str | None) -> str | None:
    """`alice`, `alice (token ci-loader)`, `token ci-loader` for a token of no user,
    None when nothing is known."""
    if username and token_name:
        return f"{username} (token {token_name})"
    if username:
        return username
    if token_name:
        return f"token {token_name}"
    return None
