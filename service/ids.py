"""Identifiers: server-made ones (`prefix_` + ULID) and the rules for client-chosen ones."""

from __future__ import annotations

import functools
import itertools
import unicodedata
from collections.abc import Callable

from ulid import ULID

MAX_ID_LENGTH = 512


def new_id(prefix: str) -> str:
    return f"{prefix}_{ULID()}"


def normalise(value: str) -> str:
    """The one spelling of an id: Unicode NFC, so `é` typed as one code point or as
    `e` + a combining accent names the same asset."""
    return unicodedata.normalize("NFC", value)


def is_plain_id(value: str) -> bool:
    """Printable ASCII without spaces, 1 to 512 characters: a valid id already in its one
    spelling (ASCII is unchanged by NFC), decided in C. Nearly every id is one."""
    return (
        0 < len(value) <= MAX_ID_LENGTH
        and value.isascii()
        and value.isprintable()
        and " " not in value
    )


def id_problem(value: str) -> str | None:
    """Why `value` cannot be an asset id, or None when it can.

    Besides control characters, invisible format characters (zero-width spaces and
    joiners, bidirectional overrides and isolates, the BOM: category Cf) are refused:
    they make two ids that look the same, or an id that displays as another.
    """
    if is_plain_id(value):
        return None  # the common case, decided in C: printable ASCII has no Cc/Cf/Cs/Co/Cn
    if not 1 <= len(value) <= MAX_ID_LENGTH:
        return f"must be 1 to {MAX_ID_LENGTH} characters long"
    for ch in value:
        if ch.isspace():
            return "must not contain whitespace"
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Co", "Cn"):
            return "must not contain control characters"
        if category == "Cf":
            return f"must not contain invisible format characters (U+{ord(ch):04X})"
    return None


# What `id_problem` refuses, as general categories: whitespace (`str.isspace`) is
# category Zs, Zl and Zp and a few control characters (Cc: tab, line feed, ...).
ID_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})


# What a name shown to people (a token's name, a user's display name) may not hold:
# control characters, invisible format characters (bidi overrides and isolates
# U+202A-U+202E and U+2066-U+2069, the marks U+200E/U+200F, zero-width characters,
# the BOM) and line or paragraph separators. Unlike an id it may hold spaces, and
# characters newer than this Python's Unicode (an emoji) are let through.
TEXT_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def text_problem(value: str) -> str | None:
    """Why `value` cannot be a displayed name, or None when it can."""
    if value.isascii() and value.isprintable():
        return None  # the common case, decided in C
    for ch in value:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs"):
            return "must not contain control characters"
        if category == "Cf":
            return f"must not contain invisible format characters (U+{ord(ch):04X})"
        if category in ("Zl", "Zp"):
            return f"must not contain line or paragraph separators (U+{ord(ch):04X})"
    return None


@functools.cache
def _category_runs() -> tuple[tuple[int, int, str], ...]:
    """Unicode as runs of consecutive code points of one general category (first, last,
    category), in this Python's Unicode version. One pass over the 1.1 million code
    points, done in C but for the few thousand runs: a loop in Python over every code
    point took a second, paid by every process that builds the OpenAPI document."""
    runs: list[tuple[int, int, str]] = []
    first = 0
    codes = map(unicodedata.category, map(chr, range(0x110000)))
    for category, run in itertools.groupby(codes):
        last = first + len(list(run)) - 1
        runs.append((first, last, category))
        first = last + 1
    return tuple(runs)


def character_class(admits: Callable[[str], bool]) -> str:
    """The code points whose general category `admits`, as the ranges of a regex
    character class (without the brackets). Astral characters are written as
    themselves: the escapes for them differ between regex dialects."""
    ranges: list[tuple[int, int]] = []
    for first, last, category in _category_runs():
        if not admits(category):
            continue
        if ranges and ranges[-1][1] == first - 1:
            ranges[-1] = (ranges[-1][0], last)
        else:
            ranges.append((first, last))
    return "".join(_char(a) if a == b else f"{_char(a)}-{_char(b)}" for a, b in ranges)


def _char(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)
