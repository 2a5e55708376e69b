"""Quality rule and result bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import AfterValidator, ConfigDict, Field, StringConstraints

from service import clock
from service.models.common import INTEGRAL, AssetId, ResponseModel, StrictModel

RuleType = Literal[
    "not_null",
    "unique",
    "accepted_values",
    "relationships",
    "range",
    "freshness",
    "row_count",
    "custom",
]
RULE_TYPES: tuple[str, ...] = get_args(RuleType)
Severity = Literal["warn", "error"]
ResultStatus = Literal["pass", "fail", "error"]
RuleName = Annotated[str, StringConstraints(min_length=1, max_length=512)]
ColumnName = Annotated[str, StringConstraints(min_length=1, max_length=512)]
Message = Annotated[str, StringConstraints(max_length=65_536)]


_NUMBER = {"type": "number"}
_BOUNDS = {
    "properties": {"min": {"type": ["number", "null"]}, "max": {"type": ["number", "null"]}},
    "anyOf": [
        {"required": ["min"], "properties": {"min": _NUMBER}},
        {"required": ["max"], "properties": {"max": _NUMBER}},
    ],
}
# What `service.domain.quality.params_problems` asks of each type's params (other keys
# are kept as given); `min` above `max` is refused too, which no schema can say.
PARAMS_BY_TYPE: dict[str, dict[str, Any]] = {
    "accepted_values": {
        "required": ["values"],
        "properties": {"values": {"type": "array", "minItems": 1}},
    },
    "relationships": {
        "required": ["to"],
        "properties": {"to": {"type": "string", "minLength": 1}},
    },
    "range": _BOUNDS,
    "row_count": _BOUNDS,
    "freshness": {
        "required": ["max_age_hours"],
        "properties": {"max_age_hours": {"type": "number", "exclusiveMinimum": 0}},
    },
}


def _params_by_type(schema: dict[str, Any]) -> None:
    free = [t for t in RULE_TYPES if t not in PARAMS_BY_TYPE]
    schema["oneOf"] = [
        {
            "required": ["type", "params"],
            "properties": {"type": {"const": rule_type}, "params": params},
        }
        for rule_type, params in PARAMS_BY_TYPE.items()
    ] + [{"properties": {"type": {"enum": free}}}]


class QualityRuleFields(StrictModel):
    """What a client writes; `status`, `last_result` and `version` are the service's."""

    model_config = ConfigDict(json_schema_extra=_params_by_type)

    asset_id: AssetId
    column: ColumnName | None = None
    name: RuleName
    type: RuleType
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="by type: accepted_values `{values: [..]}`, relationships `{to, field?}`, "
        "range and row_count `{min?, max?}` (at least one), freshness `{max_age_hours}`; "
        "not_null, unique and custom take any object",
    )
    severity: Severity = "warn"
    enabled: bool = True


class QualityRuleReplace(QualityRuleFields):
    """PUT body; read-only fields may be sent back as read and are ignored."""

    id: str | None = None
    status: str | None = None
    last_result: dict[str, Any] | None = None
    origin: str | None = None
    version: Annotated[int, INTEGRAL] | None = None
    created_at: str | None = None
    updated_at: str | None = None


class QualityRule(ResponseModel):
    id: str
    asset_id: str
    column: str | None = None
    name: str
    type: str
    params: dict[str, Any] = Field(default_factory=dict)
    severity: str
    enabled: bool = True
    status: str = Field(default="unknown", description="unknown, passing, failing or error")
    last_result: dict[str, Any] | None = None
    origin: str | None = Field(
        default=None, description="`dbt:<project>` for rules made from dbt tests, else `api`"
    )
    version: int
    created_at: str
    updated_at: str

    @classmethod
    def from_node(cls, node: dict[str, Any]) -> QualityRule:
        values = dict(node)
        values["params"] = orjson.loads(values.get("params") or "{}")
        if values.get("last_result"):
            values["last_result"] = orjson.loads(values["last_result"])
        return cls(**{k: v for k, v in values.items() if k in cls.model_fields})


class QualityRulePage(ResponseModel):
    items: list[QualityRule]
    next_cursor: str | None


def _rfc3339(value: str) -> str:
    """Normalised to the service's form (UTC, milliseconds, `Z`) so times sort as text."""
    try:
        moment = datetime.fromisoformat(value.replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        raise ValueError("must be an RFC 3339 time, e.g. 2026-01-31T12:00:00Z") from None
    if moment.tzinfo is None:
        raise ValueError("must carry a UTC offset or Z")
    return clock.format_time(moment)


class ResultCreate(StrictModel):
    status: ResultStatus
    observed_value: Any = Field(
        default=None, description="any JSON value, e.g. a failing-row count"
    )
    message: Message | None = None
    run_at: Annotated[str, AfterValidator(_rfc3339)] | None = Field(
        default=None,
        description="when the check ran (RFC 3339 with an offset); defaults to now",
        json_schema_extra={"format": "date-time"},
    )


class QualityResult(ResponseModel):
    id: str
    rule_id: str
    status: str
    observed_value: Any = None
    message: str | None = None
    run_at: str
    recorded_at: str
    source: str = Field(description="`api`, or `dbt:<invocation_id>` for dbt run results")

    @classmethod
    def from_node(cls, node: dict[str, Any]) -> QualityResult:
        values = dict(node)
        values["observed_value"] = orjson.loads(values.get("observed_json") or "null")
        return cls(**{k: v for k, v in values.items() if k in cls.model_fields})


class QualityResultPage(ResponseModel):
    items: list[QualityResult]
    next_cursor: str | None


class DbtResultsSummary(ResponseModel):
    received: int = Field(description="results in the file")
    recorded: int = Field(description="test results recorded against a rule")
    unmatched: list[str] = Field(
        description="test unique_ids with no rule here (ingest the manifest first); not an error"
    )
    skipped: int = Field(description="tests dbt skipped; nothing is recorded for them")
    ignored: int = Field(description="results for models, seeds and snapshots (not tests)")
    stale: int = Field(
        description="results older than the rule's newest; kept in history, status unchanged"
    )
    duplicates: int = Field(
        description="results this dbt invocation already recorded (an upload repeated)"
    )
    failed: list[str] = Field(description="rules that turned failing with this upload")
    recovered: list[str] = Field(description="rules that turned passing with this upload")
