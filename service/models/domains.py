"""Domain bodies: sets of assets chosen by rules, owned by a team, with team grants."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, ValidationInfo, field_validator

from service.ids import id_problem, normalise
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
VALUE_DESCRIPTION = (
    "An `asset` value is an asset id, kept in the one spelling the service gives asset ids "
    "(Unicode NFC) and held to the same rules (422 naming the value otherwise); a "
    "`namespace` value is kept in NFC too, as the ids it prefixes are. The domain answers "
    "the values as kept."
)


class DomainRule(StrictModel):
    kind: Annotated[RuleKind, Field(description=RULE_DESCRIPTION)]
    value: Annotated[
        str,
        StringConstraints(min_length=1, max_length=512),
        plain_text("a value"),
        PLAIN_TEXT_SCHEMA,
        Field(description=VALUE_DESCRIPTION),
    ]

    @field_validator("value")
    @classmethod
    def _spelled_as_ids(cls, value: str, info: ValidationInfo) -> str:
        """Asset ids are matched as the service spells them: a value written another way
        (`é` as `e` + a combining accent) would otherwise match no asset."""
        kind = info.data.get("kind")
        if kind not in ("asset", "namespace"):
            return value
        value = normalise(value)
        problem = id_problem(value) if kind == "asset" else None
        if problem:
            raise ValueError(f"an asset id {problem}")
        return value


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
