"""User bodies: dashboard accounts whose role caps what their tokens may do."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints
from pydantic.json_schema import WithJsonSchema

from service.models.common import PLAIN_TEXT_SCHEMA, ResponseModel, StrictModel, plain_text
from service.models.tokens import Token

Role = Literal["viewer", "editor", "admin"]
Username = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._@-]+$")
]
PASSWORD_MIN = 12
PASSWORD_MAX = 256
PASSWORD_RULES = (
    f"{PASSWORD_MIN} to {PASSWORD_MAX} characters, not only whitespace, not containing the "
    "username (ignoring case), and not one of the 30,000 most common passwords"
)
# The password rules need the username, which a patch does not carry: they are checked
# where a password is set (`service.store.users`, 422 weak_password), and shown here.
PASSWORD_SCHEMA = {
    "type": "string",
    "minLength": PASSWORD_MIN,
    "maxLength": PASSWORD_MAX,
    "description": f"{PASSWORD_RULES} (else 422 weak_password); stored only as an Argon2id hash.",
}
Password = Annotated[str, WithJsonSchema(PASSWORD_SCHEMA)]
DisplayName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=128),
    plain_text("a display name"),
    PLAIN_TEXT_SCHEMA,
]


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
    password: Annotated[Password | None, WithJsonSchema(PASSWORD_SCHEMA)] = None


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
    user_id: str | None = Field(description="the token's user (null: made by the command line)")
    username: str | None
    role: str = Field(
        description="the global role: the user's, or for a command-line token the one its "
        "scope names"
    )
    scopes: list[str] = Field(
        description="what the token may do now: its scopes capped by the user's best role "
        "anywhere (the global role or a role in any domain)"
    )
    teams: list[str] = Field(description="the teams the user belongs to")
    domain_roles: dict[str, str] = Field(
        description="each domain the user holds a role in through a team, with the best "
        "such role (`viewer`, `editor`, `admin`)"
    )
