"""API token bodies."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints

from service.models.common import (
    INTEGRAL,
    PLAIN_TEXT_SCHEMA,
    ResponseModel,
    StrictModel,
    plain_text,
)

ScopeName = Literal["read", "write", "admin"]


def _unique(values: list[ScopeName]) -> list[ScopeName]:
    return list(dict.fromkeys(values))


class TokenCreate(StrictModel):
    name: Annotated[
        str,
        StringConstraints(min_length=1, max_length=128),
        plain_text("a token name"),
        PLAIN_TEXT_SCHEMA,
    ]
    scopes: Annotated[list[ScopeName], Field(min_length=1, max_length=3), AfterValidator(_unique)]
    expires_in_days: Annotated[int, Field(ge=1, le=3650), INTEGRAL] | None = None


class Token(ResponseModel):
    id: str
    name: str
    scopes: list[str]
    prefix: str
    created_at: str
    expires_at: str | None = None
    last_used_at: str | None = None
    revoked_at: str | None = None
    created_by: str | None = None
    user_id: str | None = Field(
        default=None, description="The user who made the token; null for one made by the CLI."
    )


class TokenCreated(Token):
    token: str = Field(description="The secret, shown this once; only its hash is stored.")


class TokenPage(ResponseModel):
    items: list[Token]
    next_cursor: str | None
