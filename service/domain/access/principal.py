"""Who is calling, as far as authorisation cares."""

from __future__ import annotations

from dataclasses import dataclass

from service.domain.access.scopes import Scope


@dataclass(frozen=True)
class Principal:
    token_id: str
    name: str
    scope: Scope
    user_id: str | None = None

    @property
    def actor(self) -> str:
        return f"token:{self.token_id}"
