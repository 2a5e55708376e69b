"""Who an OpenID Connect sign-in is, and which role it brings.

A federated user is known by the provider's issuer and the ID token's `sub` (never by
email alone: an address can be reassigned, or asserted unverified by another
provider). Their role comes from the groups claim at every sign-in, so a change at
the provider takes effect the next time they sign in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.domain.access.scopes import ROLE_SCOPE

USERNAME = re.compile(r"^[A-Za-z0-9._@-]{1,64}$")
NO_ROLE = "none"


@dataclass(frozen=True)
class Identity:
    issuer: str
    subject: str
    username: str  # proposed for a new user; an existing one keeps theirs
    display_name: str | None
    groups: tuple[str, ...]

    @property
    def link_key(self) -> str:
        """What the user node is found by: issuer and subject together."""
        return f"{self.issuer}\n{self.subject}"


class UnusableClaims(ValueError):
    """The ID token lacks what a sign-in needs (its subject)."""


def identity(claims: Mapping[str, Any], issuer: str, role_claim: str) -> Identity:
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        raise UnusableClaims("The provider's ID token names no subject.")
    name = claims.get("name")
    return Identity(
        issuer=issuer,
        subject=subject,
        username=username_for(claims, issuer, subject),
        display_name=name.strip()[:128] if isinstance(name, str) and name.strip() else None,
        groups=groups_in(claims.get(role_claim)),
    )


def username_for(claims: Mapping[str, Any], issuer: str, subject: str) -> str:
    """`preferred_username`, else `email`, when it is a valid username; else a name
    made from the issuer and subject, so any provider's users can sign in."""
    for claim in ("preferred_username", "email"):
        value = claims.get(claim)
        if isinstance(value, str) and USERNAME.match(value):
            return value
    digest = hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()
    return f"sso-{digest[:16]}"


def groups_in(value: Any) -> tuple[str, ...]:
    """The claim's groups: providers send a list of strings, or one string."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(item for item in value if isinstance(item, str))
    return ()


def role_for(
    groups: tuple[str, ...], role_map: tuple[tuple[str, str], ...], default_role: str
) -> str | None:
    """The highest role any of the groups maps to; else the default (None: refused)."""
    mapped = [role for group, role in role_map if group in groups]
    if mapped:
        return max(mapped, key=ROLE_SCOPE.__getitem__)
    return None if default_role == NO_ROLE else default_role
