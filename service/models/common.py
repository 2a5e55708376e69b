"""Shapes shared by every resource."""

from __future__ import annotations

import functools
import unicodedata
from typing import Annotated, Any, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from service.ids import (
    TEXT_REFUSED_CATEGORIES,
    character_class,
    id_problem,
    normalise,
    text_problem,
)

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


def has_controls(value: str) -> bool:
    """A C0 or C1 control character (or a lone surrogate) in `value`."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value)


def no_controls(what: str) -> AfterValidator:
    """Refuses C0 and C1 control characters in a name: they print as nothing or break
    lines, and Neo4j refuses NUL in a property key outright."""

    def check(value: str) -> str:
        if has_controls(value):
            raise ValueError(f"{what} must not contain control characters")
        return value

    return AfterValidator(check)


def plain_text(what: str) -> AfterValidator:
    """Refuses what `service.ids.text_problem` refuses in a name people read (control,
    bidi and other invisible characters): 422 naming the field."""

    def check(value: str) -> str:
        problem = text_problem(value)
        if problem:
            raise ValueError(f"{what} {problem}")
        return value

    return AfterValidator(check)


def _plain_text_pattern(schema: dict[str, Any]) -> None:
    schema["pattern"] = plain_text_pattern()


# The schema of `plain_text`, filled in when a schema is built (it takes a scan of Unicode).
PLAIN_TEXT_SCHEMA = Field(json_schema_extra=_plain_text_pattern)


@functools.cache
def plain_text_pattern() -> str:
    """`text_problem`'s rule as a JSON Schema pattern: none of the refused characters
    (surrogates cannot reach it from JSON)."""
    refused = TEXT_REFUSED_CATEGORIES - {"Cs"}
    return f"^[^{character_class(lambda category: category in refused)}]*$"


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
