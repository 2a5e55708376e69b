"""Optimistic concurrency: `ETag: "<version>"` out, `If-Match` in."""

from __future__ import annotations

from dataclasses import dataclass


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
    """None when there is no header. Entity tags that are not ours match nothing."""
    if header is None:
        return None
    header = header.strip()
    if header == "*":
        return Expected(any_version=True)
    versions = set()
    for part in header.split(","):
        tag = part.strip().removeprefix("W/").strip('"')
        if tag.isdigit():
            versions.add(int(tag))
    return Expected(versions=frozenset(versions))


def etag(version: int) -> str:
    return f'"{version}"'
