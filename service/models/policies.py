"""Policy bodies. Each kind's `params` has its own model; the
handler validates `params` against the kind named in the same body.

A lineage kind's `max_depth` is at most the deployment's deepest walk
(`ConfiguredMaximum`; the policies handlers refuse more) and, absent, is that depth:
it is not stored, and each evaluation walks as deep as the service then allows."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import AfterValidator, ConfigDict, Field, StringConstraints

from service.models.assets import Tag, Tags
from service.models.common import INTEGRAL, ResponseModel, StrictModel
from service.models.configured import Configured, ConfiguredMaximum
from service.models.quality import RuleType

Kind = Literal[
    "require_owner",
    "require_description",
    "require_quality_rule",
    "tag_propagation",
    "restricted_flow",
    "restricted_column_flow",
]
KINDS: tuple[str, ...] = get_args(Kind)
Severity = Literal["low", "medium", "high", "critical"]
Text = Annotated[str, StringConstraints(min_length=1, max_length=256)]
OneOrMany = Text | Annotated[list[Text], Field(min_length=1, max_length=100)]
Depth = Annotated[int, Field(ge=1), ConfiguredMaximum("max_lineage_depth"), INTEGRAL]


def _deepest(schema: dict[str, Any]) -> None:
    schema["default"] = Configured("max_lineage_depth")


def _max_depth(description: str) -> Any:
    """An optional `max_depth`: absent (or null) is the deployment's, and is not stored."""
    return Field(
        default=None,
        exclude_if=lambda depth: depth is None,
        json_schema_extra=_deepest,
        description=f"{description} (default: GOVERNANCE_MAX_LINEAGE_DEPTH)",
    )


class Selector(StrictModel):
    """Which assets a policy governs; every given criterion must hold, a list means any of.
    Placeholders (ids lineage named but nobody described) are never governed."""

    type: OneOrMany | None = None
    platform: OneOrMany | None = None
    tags: Tags = Field(default_factory=list, description="every tag must be present")
    id_prefix: Text | None = None

    def as_params(self) -> dict[str, Any]:
        """The selector as Cypher parameters: lists or null, tags lower-cased."""

        def many(value: str | list[str] | None) -> list[str] | None:
            return [value] if isinstance(value, str) else value

        return {
            "type": many(self.type),
            "platform": many(self.platform),
            "tags": list(self.tags),
            "id_prefix": self.id_prefix,
        }


class NoParams(StrictModel):
    pass


class RequireQualityRuleParams(StrictModel):
    types: list[RuleType] = Field(
        default_factory=list, description="count only rules of these types (default: any)"
    )


class TagPropagationParams(StrictModel):
    tag: Annotated[Tag, AfterValidator(str.lower)] = Field(description="compared lower-cased")
    max_depth: Depth | None = _max_depth("how far downstream the tag must reach")


class RestrictedFlowParams(StrictModel):
    to: Selector = Field(description="the assets governed assets must not flow into")
    max_depth: Depth | None = _max_depth("hops within which a flow is a violation")


class RestrictedColumnFlowParams(StrictModel):
    tag: Annotated[Tag, AfterValidator(str.lower)] = Field(
        description="the column tag governed assets must not receive unmasked (compared "
        "lower-cased): a column of theirs inheriting it along column lineage violates"
    )
    max_depth: Depth | None = _max_depth("mappings within which an arrival is a violation")


PARAMS: dict[str, type[StrictModel]] = {
    "require_owner": NoParams,
    "require_description": NoParams,
    "require_quality_rule": RequireQualityRuleParams,
    "tag_propagation": TagPropagationParams,
    "restricted_flow": RestrictedFlowParams,
    "restricted_column_flow": RestrictedColumnFlowParams,
}


def _params_by_kind(schema: dict[str, Any]) -> None:
    """`params` as each kind's model reads it, so the schema says what the handler checks."""
    schema["oneOf"] = []
    for kind, model in PARAMS.items():
        params = _inline(model)
        variant = {"properties": {"kind": {"const": kind}, "params": params}, "required": ["kind"]}
        if params.get("required"):  # absent params read as {}, which lacks them
            variant["required"] = ["kind", "params"]
        schema["oneOf"].append(variant)


def _inline(model: type[StrictModel]) -> dict[str, Any]:
    """The model's schema with its definitions (Selector) written in place."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    schema.pop("title", None)

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return resolve(defs[ref.removeprefix("#/$defs/")])
            return {key: resolve(value) for key, value in node.items()}
        if isinstance(node, list):
            return [resolve(value) for value in node]
        return node

    resolved: dict[str, Any] = resolve(schema)
    return resolved


class PolicyFields(StrictModel):
    model_config = ConfigDict(json_schema_extra=_params_by_kind)

    name: Text
    description: Annotated[str, StringConstraints(max_length=65_536)] | None = None
    kind: Kind
    enabled: bool = True
    severity: Severity = "medium"
    selector: Selector = Field(default_factory=Selector)
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="by kind: tag_propagation `{tag, max_depth?}`, restricted_flow "
        "`{to: selector, max_depth?}`, restricted_column_flow `{tag, max_depth?}`, "
        "require_quality_rule `{types?}`, others `{}`",
    )


class PolicyReplace(PolicyFields):
    """PUT body; read-only fields may be sent back as read and are ignored."""

    id: str | None = None
    version: Annotated[int, INTEGRAL] | None = None
    created_at: str | None = None
    updated_at: str | None = None
    evaluated_at: str | None = None


class Policy(ResponseModel):
    id: str
    name: str
    description: str | None = None
    kind: str
    enabled: bool
    severity: str
    selector: dict[str, Any]
    params: dict[str, Any]
    version: int
    created_at: str
    updated_at: str
    evaluated_at: str | None = Field(default=None, description="when violations were last computed")

    @classmethod
    def from_node(cls, node: dict[str, Any]) -> Policy:
        values = dict(node)
        values["selector"] = orjson.loads(values.pop("selector_json", None) or "{}")
        values["params"] = orjson.loads(values.pop("params_json", None) or "{}")
        return cls(**{k: v for k, v in values.items() if k in cls.model_fields})


class PolicyPage(ResponseModel):
    items: list[Policy]
    next_cursor: str | None


class Violation(ResponseModel):
    asset_id: str
    reason: str
    path: list[str] | None = Field(
        default=None,
        description="for lineage kinds: the offending path, one step per asset "
        "(`asset#column` for restricted_column_flow)",
    )
    path_assets: list[str] | None = Field(
        default=None, description="the asset of each `path` step, in the same order"
    )
    far_end: str | None = Field(
        default=None,
        description="the `path` step the reason names (its far end), written last in the reason",
    )
    opened_at: str


class Violations(ResponseModel):
    policy_id: str
    evaluated_at: str | None = Field(description="null until the policy is first evaluated")
    violations: list[Violation]
    next_cursor: str | None


class PolicyEvaluation(ResponseModel):
    policy_id: str
    violations: int
    opened: int
    resolved: int


class EvaluationSummary(ResponseModel):
    evaluated_at: str
    policies: list[PolicyEvaluation]
