"""User bodies: dashboard accounts whose role caps what their tokens may do."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints
from pydantic.json_schema import WithJsonSchema

from service.models.common import ResponseModel, StrictModel
from service.models.tokens import Token

Role = Literal["viewer", "editor", "admin"]
Username = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._@-]+$")
]
Password = Annotated[
    str,
    StringConstraints(min_length=12, max_length=256),
    Field(description="12 to 256 characters; stored only as an Argon2id hash."),
]
DisplayName = Annotated[str, StringConstraints(min_length=1, max_length=128)]


class UserCreate(StrictModel):
    username: Username
    password: Password
    role: Role
    display_name: DisplayName | None = None


class UserPatch(StrictModel):
    """A JSON Merge Patch of a user: only the fields present change."""

    # null clears only the display name; the others cannot be cleared (422). They are
    # validated as `X | None` (one error at the field's own path, not one per branch
    # of a union) and documented without null.
    role: Annotated[
        Role | None, WithJsonSchema({"type": "string", "enum": ["viewer", "editor", "admin"]})
    ] = None
    display_name: DisplayName | None = None
    disabled: Annotated[bool | None, WithJsonSchema({"type": "boolean"})] = None
    password: Annotated[
        Password | None,
        WithJsonSchema(
            {
                "type": "string",
                "minLength": 12,
                "maxLength": 256,
                "description": "12 to 256 characters; stored only as an Argon2id hash.",
            }
        ),
    ] = None


class User(ResponseModel):
    id: str
    username: str
    display_name: str | None = None
    role: Role
    disabled: bool
    created_at: str
    updated_at: str
    last_sign_in_at: str | None = None


class UserPage(ResponseModel):
    items: list[User]
    next_cursor: str | None


class Me(ResponseModel):
    token: Token
    user: User | None
