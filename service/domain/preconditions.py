"""Optimistic concurrency: `ETag: "<version>"` out, `If-Match` in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from service.errors import BadRequest, FieldError

# What If-Match may hold: `*`, or our entity tags (a version in quotes, maybe weak),
# comma-separated. The OpenAPI document shows the same pattern.
IF_MATCH_PATTERN = r'^(\*|(W/)?"[0-9]{1,18}"( *, *(W/)?"[0-9]{1,18}")*)$'
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


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
    """None when there is no header; 400 for one that holds no entity tag we could have
    sent (empty, unquoted, not a version): a malformed precondition is the client's
    mistake to fix, not a version that does not match (412)."""
    if header is None:
        return None
    header = header.strip()
    if not _IF_MATCH.match(header):
        raise BadRequest(
            'If-Match must be `*` or the ETag\'s quoted version, e.g. "3".',
            code="invalid_header",
            errors=[FieldError(("header", "If-Match"), "malformed entity tag", "invalid_header")],
        )
    if header == "*":
        return Expected(any_version=True)
    versions = {int(part.strip().removeprefix("W/").strip('"')) for part in header.split(",")}
    return Expected(versions=frozenset(versions))


def etag(version: int) -> str:
    return f'"{version}"'
