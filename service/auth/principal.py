"""Who is calling, as far as authorisation cares."""

from __future__ import annotations

from dataclasses import dataclass

from service.auth.scopes import Scope


@dataclass(frozen=True)
class Principal:
    token_id: str
    name: str
    scope: Scope
    user_id: str | None = None

    @property
    def actor(self) -> str:
        return f"token:{self.token_id}"


API_PREFIX = "/api/v1"
PUBLIC = frozenset(
    {("GET", API_PREFIX), ("GET", API_PREFIX + "/"), ("GET", API_PREFIX + "/openapi.json")}
)
ADMIN_PREFIXES = ("/tokens", "/users", "/webhooks", "/query/cypher")
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
READ_POSTS = frozenset({"/query"})


def needs_token(method: str, path: str) -> bool:
    return path.startswith(API_PREFIX) and (method, path) not in PUBLIC


def required_scope(method: str, path: str) -> Scope:
    """The scope an /api/v1 operation needs (README.md, Tokens and scopes)."""
    sub = path[len(API_PREFIX) :]
    if any(sub == p or sub.startswith(p + "/") for p in ADMIN_PREFIXES):
        return Scope.ADMIN
    if method in READ_METHODS or (method == "POST" and sub in READ_POSTS):
        return Scope.READ
    return Scope.WRITE
