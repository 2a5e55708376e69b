"""Typed reads from untrusted JSON: every wrong shape becomes a ManifestError with its loc.

Absent and null read as "nothing" everywhere; a value of the wrong JSON type is
an error, never a KeyError, TypeError or AttributeError.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

from service.domain.dbt.contents import Loc, ManifestError

MAX_COPY_VALUES = 1_000_000
# A copied value is stored as JSON text, and orjson writes at most 254 levels; the API
# reads at most 200 (service.http.MAX_JSON_DEPTH), so a copy may be that deep too.
MAX_COPY_DEPTH = 200


def fail(loc: Loc, msg: str) -> NoReturn:
    raise ManifestError(msg, loc)


def obj(value: Any, loc: Loc) -> dict[str, Any]:
    if not isinstance(value, dict):
        fail(loc, f"must be an object, not {kind(value)}")
    return value


def opt_obj(parent: dict[str, Any], key: str, loc: Loc) -> dict[str, Any]:
    """parent[key] as an object; absent or null reads as {}."""
    value = parent.get(key)
    if isinstance(value, dict):
        return value
    return {} if value is None else obj(value, (*loc, key))


def opt_str(parent: dict[str, Any], key: str, loc: Loc) -> str | None:
    value = parent.get(key)
    if value is None or isinstance(value, str):
        return value
    fail((*loc, key), f"must be a string or null, not {kind(value)}")


def text(parent: dict[str, Any], key: str, loc: Loc) -> str | None:
    """A string field where "" (and blanks) mean "not set", as dbt writes them."""
    value = opt_str(parent, key, loc)
    return value if value and not value.isspace() else None


def opt_bool(parent: dict[str, Any], key: str, loc: Loc) -> bool | None:
    value = parent.get(key)
    if value is None or isinstance(value, bool):
        return value
    fail((*loc, key), f"must be true, false or null, not {kind(value)}")


def str_list(parent: dict[str, Any], key: str, loc: Loc) -> list[str]:
    """parent[key] as a list of strings; absent or null reads as []."""
    value = parent.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        fail((*loc, key), f"must be a list of strings, not {kind(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            fail((*loc, key, i), f"must be a string, not {kind(item)}")
    return value


def str_keys(mapping: dict[Any, Any], loc: Loc) -> None:
    for key in mapping:
        if not isinstance(key, str):
            fail(loc, "object keys must be strings")


def json_copy(value: Any, loc: Loc) -> Any:
    """A deep copy that is safe to serialise as JSON; iterative, so depth cannot overflow."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, Loc]] = [(value, root, 0, loc)]
    seen = 0
    while stack:
        src, dest, slot, where = stack.pop()
        seen += 1
        if seen > MAX_COPY_VALUES:
            fail(loc, "holds too many values")
        if len(where) - len(loc) > MAX_COPY_DEPTH:
            fail(loc, f"is nested deeper than {MAX_COPY_DEPTH} levels")
        if isinstance(src, dict):
            str_keys(src, where)
            dest[slot] = new = dict.fromkeys(src)
            stack.extend((v, new, k, (*where, k)) for k, v in src.items())
        elif isinstance(src, list):
            dest[slot] = items = [None] * len(src)
            stack.extend((v, items, i, (*where, i)) for i, v in enumerate(src))
        elif isinstance(src, float) and not math.isfinite(src):
            fail(where, "must be a finite number")
        elif src is None or isinstance(src, str | int | float):
            dest[slot] = src
        else:
            fail(where, f"must be a JSON value, not {type(src).__name__}")
    return root[0]


def kind(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def dedupe(*groups: list[str]) -> tuple[str, ...]:
    """Non-empty strings of every group, first occurrence kept."""
    return tuple(dict.fromkeys(s for group in groups for s in group if s))


class Warnings:
    """Collects warnings; past `limit` it only counts, so one bad manifest stays readable."""

    def __init__(self, limit: int = 100) -> None:
        self.limit = limit
        self.items: list[str] = []
        self.dropped = 0

    def add(self, message: str) -> None:
        if len(self.items) < self.limit:
            self.items.append(message)
        else:
            self.dropped += 1

    def result(self) -> tuple[str, ...]:
        more = [f"... and {self.dropped} more warning(s)"] if self.dropped else []
        return (*self.items, *more)
