"""Team bodies: named groups of users, some synced from the identity provider."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field, StringConstraints

from service.models.common import PLAIN_TEXT_SCHEMA, ResponseModel, StrictModel, plain_text

# Teams and domains share one id rule: a slug people type in URLs and rules.
SLUG_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,62}$"
Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN)]
_SLUG = re.compile(SLUG_PATTERN)


def is_slug(value: str) -> bool:
    """Whether a team or domain id taken from a path or a form keeps the id rule."""
    return _SLUG.fullmatch(value) is not None


MAX_IDP_GROUPS = 100
Label = Annotated[
    str,
    StringConstraints(min_length=1, max_length=128),
    plain_text("a display name"),
    PLAIN_TEXT_SCHEMA,
]
GroupName = Annotated[
    str, StringConstraints(min_length=1, max_length=256), plain_text("a group"), PLAIN_TEXT_SCHEMA
]


class TeamPut(StrictModel):
    display_name: Label | None = None
    idp_groups: Annotated[
        list[GroupName],
        Field(
            max_length=MAX_IDP_GROUPS,
            description="Groups of the identity provider's groups claim whose members belong "
            "to the team. When not empty, each sign-in through the provider adds or removes "
            "the user's membership to match the claim; an empty list means members are "
            "managed by hand only.",
        ),
    ] = Field(default_factory=list)


class Team(ResponseModel):
    id: str
    display_name: str | None = None
    idp_groups: list[str]
    members: list[str] = Field(description="user ids")
    created_at: str
    updated_at: str


class TeamList(ResponseModel):
    items: list[Team]
