"""Conditional requests on versioned resources (RFC 9110 §13): `ETag: "<version>"`
out; `If-Match` in to refuse lost updates, `If-None-Match` in to revalidate a copy."""

from __future__ import annotations

import re
from dataclasses import dataclass

from service.errors import BadRequest, FieldError

# An entity tag as RFC 9110 §8.8.3 writes it, printable ASCII inside the quotes (obs-text
# is left out: no client needs it, and the OpenAPI document shows this same pattern).
ENTITY_TAG = r'(W/)?"[\x21\x23-\x7e]*"'
_LIST = rf"{ENTITY_TAG}([ \t]*,[ \t]*{ENTITY_TAG})*"
IF_MATCH_PATTERN = rf"^(\*|{_LIST})$"
_IF_MATCH = re.compile(IF_MATCH_PATTERN)
_TAG = re.compile(ENTITY_TAG)


@dataclass(frozen=True)
class Expected:
    """What an If-Match header asks for: any existing version, or one of some versions."""

    any_version: bool = False
    versions: frozenset[int] = frozenset()

    def holds(self, current: int | None) -> bool:
        """`current` is None when the resource does not exist."""
        if current is None:
            return False
        return self.any_version or current in self.versions


def parse_if_match(header: str | None) -> Expected | None:
    """None without the header. One that is neither `*` nor a list of entity tags is
    the client's mistake to fix (400), not a version that differs; a well-formed tag
    that is not ours names no version, so it matches nothing (412)."""
    if header is None:
        return None
    header = header.strip(" \t")
    if not _IF_MATCH.fullmatch(header):
        raise BadRequest(
            'If-Match must be `*` or a list of entity tags, e.g. "3" from the ETag.',
            code="invalid_header",
            errors=[FieldError(("header", "If-Match"), "malformed entity tag", "invalid_header")],
        )
    if header == "*":
        return Expected(any_version=True)
    return Expected(versions=frozenset(_versions(header)))


def not_modified(header: str | None, version: int) -> bool:
    """Whether If-None-Match names `version` (weak comparison, as GET uses) or is `*`.
    A header that is no list of entity tags is no condition: the answer is the item."""
    if header is None:
        return False
    header = header.strip(" \t")
    if header == "*":
        return True
    return version in _versions(header) if _IF_MATCH.fullmatch(header) else False


def _versions(tags: str) -> set[int]:
    """The versions a list of entity tags names; `W/` is ignored (weak comparison).
    Ours are at most 18 digits: a longer tag names none, and `int` never sees a huge one."""
    found = (m.group(0).removeprefix("W/")[1:-1] for m in _TAG.finditer(tags))
    return {int(tag) for tag in found if 0 < len(tag) <= 18 and tag.isascii() and tag.isdigit()}


def etag(version: int) -> str:
    return f'"{version}"'
