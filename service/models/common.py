"""Shapes shared by every resource."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, WithJsonSchema

from service.ids import id_problem, normalise

T = TypeVar("T")


class StrictModel(BaseModel):
    """Request bodies: no unknown fields, no silent type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ResponseModel(BaseModel):
    model_config = ConfigDict(frozen=True)


def _check_id(value: str) -> str:
    value = normalise(value)
    problem = id_problem(value)
    if problem:
        raise ValueError(f"id {problem}")
    return value


# Marked for `service.openapi`, which points the mark at one shared component that
# spells `_check_id`'s rule out as a pattern, so clients and fuzzers see the rule.
ASSET_ID_MARK = "x-asset-id"
# Tags of a union's branches (an edge end: an id or a dataset), dropped from the
# locations of validation errors so that they name the request's own fields.
END_ID = "end:id"
END_DATASET = "end:dataset"
UNION_TAGS = frozenset((END_ID, END_DATASET))


def field_loc(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    return tuple(part for part in loc if part not in UNION_TAGS)


DATASET_ID_PART_MARK = "x-dataset-id-part"
AssetId = Annotated[
    str, AfterValidator(_check_id), WithJsonSchema({"type": "string", ASSET_ID_MARK: True})
]


# `no_controls`'s rule as a JSON Schema pattern (surrogates cannot reach it from JSON).
NO_CONTROLS_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"


def no_controls(what: str) -> AfterValidator:
    """Refuses C0 and C1 control characters in a name: they print as nothing or break
    lines, and Neo4j refuses NUL in a property key outright."""

    def check(value: str) -> str:
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
            raise ValueError(f"{what} must not contain control characters")
        return value

    return AfterValidator(check)


def keys_by_pattern(schema: dict[str, Any]) -> None:
    """For a map whose key type has a pattern: that pattern constrains every key
    (`propertyNames`), as pydantic's `patternProperties` (which leaves keys that do
    not match free) does not."""
    ((pattern, value),) = schema.pop("patternProperties").items()
    schema["propertyNames"] = {**schema.get("propertyNames", {}), "pattern": pattern}
    schema["additionalProperties"] = value


def _integral(value: object) -> object:
    """2.0 is the integer 2 to JSON Schema (and so to clients and fuzzers that read
    ours); strict models would refuse the float."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# For an integer in a request body, after its bounds (so that they stay in its JSON
# schema): takes what JSON Schema's "integer" admits.
INTEGRAL = BeforeValidator(_integral)


class Page(ResponseModel, Generic[T]):
    items: list[T]
    next_cursor: str | None
