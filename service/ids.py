"""Identifiers: server-made ones (`prefix_` + ULID) and the rules for client-chosen ones."""

from __future__ import annotations

import unicodedata

from ulid import ULID

MAX_ID_LENGTH = 512


def new_id(prefix: str) -> str:
    return f"{prefix}_{ULID()}"


def id_problem(value: str) -> str | None:
    """Why `value` cannot be an asset id, or None when it can."""
    if not 1 <= len(value) <= MAX_ID_LENGTH:
        return f"must be 1 to {MAX_ID_LENGTH} characters long"
    for ch in value:
        if ch.isspace():
            return "must not contain whitespace"
        if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            return "must not contain control characters"
    return None
