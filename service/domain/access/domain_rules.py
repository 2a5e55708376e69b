"""What a caller may do with an asset given its domain: pure rules over a `Principal`.

Outside every domain the global role decides, as it always did. Inside one, the
caller's role in that domain decides (the best role among the grants to their teams);
a global admin may do everything everywhere. A private domain's assets are hidden
from callers with no role in it. The token's scope caps all of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from service.domain.access.principal import Principal
from service.domain.access.scopes import ROLE_SCOPE, ROLES, Scope


def best_roles(grants: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each domain's best role among (domain id, role) grants; unknown roles ignored."""
    best: dict[str, str] = {}
    for domain, role in grants:
        if role in ROLE_SCOPE and ROLE_SCOPE[role] > ROLE_SCOPE.get(best.get(domain, ""), 0):
            best[domain] = role
    return best


def best_role_anywhere(role: str, domain_roles: Mapping[str, str]) -> str:
    """The strongest of the global role and every domain role: what caps a token."""
    return max((role, *domain_roles.values()), key=lambda r: ROLE_SCOPE[r])


def is_global_admin(principal: Principal) -> bool:
    return principal.role == "admin"


def _reaches(principal: Principal, role: str | None, needed: Scope) -> bool:
    return role in ROLES and min(principal.scope, ROLE_SCOPE[role]) >= needed


def can_read(principal: Principal, domain: str | None, private: bool) -> bool:
    """Any caller reads assets outside private domains; inside one, a role in it."""
    if domain is None or not private or is_global_admin(principal):
        return True
    return domain in principal.domain_roles


def can_write(principal: Principal, domain: str | None) -> bool:
    """Outside every domain the global role must reach editor; inside one, the role in
    that domain (global admins everywhere)."""
    if is_global_admin(principal) or domain is None:
        return _reaches(principal, principal.role, Scope.WRITE)
    return _reaches(principal, principal.domain_roles.get(domain), Scope.WRITE)


def sees_everything(principal: Principal) -> bool:
    """Nothing is hidden from a global admin: reads need not ask."""
    return is_global_admin(principal)


def readable_private(principal: Principal) -> tuple[str, ...] | None:
    """The private domains whose assets a list may show this caller: those it holds a
    role in; None (all) for a global admin."""
    return None if is_global_admin(principal) else tuple(sorted(principal.domain_roles))
