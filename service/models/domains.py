"""Domain bodies: sets of assets chosen by rules, owned by a team, with team grants."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from service.models.common import PLAIN_TEXT_SCHEMA, ResponseModel, StrictModel, plain_text
from service.models.teams import Label, Slug

MAX_RULES = 100
MAX_GRANTS = 100
RuleKind = Literal["asset", "dbt_project", "namespace", "tag"]
DomainRole = Literal["viewer", "editor", "admin"]
RULE_DESCRIPTION = (
    "`asset`: the asset with this id; `dbt_project`: assets a dbt upload wrote for this "
    "project (the manifest's `metadata.project_name`, kept as the asset property "
    "`dbt_project`); `namespace`: assets whose id starts with the value; `tag`: assets "
    "carrying the tag (ignoring case). An asset is in at most one domain: an `asset` rule "
    "wins over `dbt_project`, which wins over `namespace`, which wins over `tag`; within "
    "one kind the domain id that sorts first wins."
)


class DomainRule(StrictModel):
    kind: Annotated[RuleKind, Field(description=RULE_DESCRIPTION)]
    value: Annotated[
        str,
        StringConstraints(min_length=1, max_length=512),
        plain_text("a value"),
        PLAIN_TEXT_SCHEMA,
    ]


class Grant(StrictModel):
    team: Slug
    role: DomainRole


class DomainPut(StrictModel):
    display_name: Label | None = None
    description: (
        Annotated[
            str, StringConstraints(max_length=4096), plain_text("a description"), PLAIN_TEXT_SCHEMA
        ]
        | None
    ) = None
    private: bool = False
    owner_team: Slug
    rules: Annotated[list[DomainRule], Field(max_length=MAX_RULES)] = Field(default_factory=list)
    grants: Annotated[list[Grant], Field(max_length=MAX_GRANTS)] = Field(default_factory=list)


class RuleOut(ResponseModel):
    kind: RuleKind
    value: str


class GrantOut(ResponseModel):
    team: str
    role: DomainRole


class Domain(ResponseModel):
    id: str
    display_name: str | None = None
    description: str | None = None
    private: bool
    owner_team: str
    rules: list[RuleOut]
    grants: list[GrantOut] = Field(description="the owner team's implicit admin grant included")
    asset_count: int
    created_at: str
    updated_at: str


class DomainList(ResponseModel):
    items: list[Domain]
