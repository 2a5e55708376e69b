"""Scopes are ordered: a higher scope includes every lower one."""

from __future__ import annotations

from enum import IntEnum


class Scope(IntEnum):
    READ = 1
    WRITE = 2
    ADMIN = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: str) -> Scope:
        return cls[value.upper()]


def highest(scopes: list[str]) -> Scope | None:
    """The strongest scope named, or None for a token that names none we know."""
    known = [Scope[s.upper()] for s in scopes if s.upper() in Scope.__members__]
    return max(known, default=None)


ROLES = ("viewer", "editor", "admin")
ROLE_SCOPE = {"viewer": Scope.READ, "editor": Scope.WRITE, "admin": Scope.ADMIN}


def scopes_allowed(role: str) -> list[str]:
    """The scope names a user of `role` may give a token, weakest first."""
    return scopes_allowed_by(ROLE_SCOPE[role])


def scopes_allowed_by(scope: Scope) -> list[str]:
    """The scope names `scope` includes, weakest first."""
    return [s.label for s in Scope if s <= scope]
