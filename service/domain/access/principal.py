"""Who is calling, as far as authorisation cares."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from service.domain.access.scopes import ROLE_SCOPE, Scope


def _no_roles() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Principal:
    """`scope` is the token's scope capped by the user's best role anywhere (global or in
    a domain); `role` the user's global role (a token made by `governance token create`
    acts as the role its scope names); `domain_roles` the best role per domain through
    the user's teams. Writes outside every domain need `role` to reach editor."""

    token_id: str
    name: str
    scope: Scope
    user_id: str | None = None
    role: str = "viewer"
    domain_roles: Mapping[str, str] = field(default_factory=_no_roles)
    teams: tuple[str, ...] = ()
    # The global role and raw grants as read with the token (`access_of`): a statement
    # that re-checks a token the process remembers compares them with the graph's.
    access: tuple[str, ...] = ()

    @property
    def global_scope(self) -> Scope:
        """The scope the global role alone allows: what routes outside domains need
        (users, policies, webhooks, the audit trail)."""
        return min(self.scope, ROLE_SCOPE[self.role])

    @property
    def actor(self) -> str:
        return f"token:{self.token_id}"


def access_of(role: str | None, grants: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The user's global role ('' for a token without a user) then each (domain, role)
    grant through their teams as `domain role`, sorted: the form the re-checking
    statements build (`lineage.traverse`) to tell whether any of it changed."""
    return (role or "", *sorted(f"{domain} {given}" for domain, given in grants))


class StaleAccess(Exception):
    """A remembered caller's role or grants changed since the process read them: look
    the token up again and serve the request once more."""
