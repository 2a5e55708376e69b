"""Data to a model, strictly: a wrong type is a 422 naming the field rather than a
silent coercion. Used on request bodies and on merged documents alike."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from service.errors import MAX_FIELD_ERRORS, FieldError, Unprocessable
from service.models.common import field_loc

M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], data: Any, loc_prefix: tuple[str | int, ...] = ("body",)) -> M:
    if isinstance(data, dict):
        _refuse_unknown_key_flood(model, data, loc_prefix)
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        raise unprocessable_from(exc, loc_prefix) from exc


def _refuse_unknown_key_flood(
    model: type[M], data: dict[str, Any], loc: tuple[str | int, ...]
) -> None:
    """Stop early on an object with more unknown keys than a problem would list.

    Pydantic would build one error per key (a million keys: ten seconds of the event
    loop); a linear pass over the keys names the first ones instead.
    """
    if len(data) <= MAX_FIELD_ERRORS or model.model_config.get("extra") != "forbid":
        return
    known = {*model.model_fields, *(f.alias for f in model.model_fields.values() if f.alias)}
    unknown = [key for key in data if key not in known]
    if len(unknown) > MAX_FIELD_ERRORS:
        raise Unprocessable(
            f"Invalid request: {len(unknown)} unknown fields.",
            errors=[
                FieldError((*loc, key), "Extra inputs are not permitted", "extra_forbidden")
                for key in unknown[:MAX_FIELD_ERRORS]
            ],
            extra={"errors_omitted": len(unknown) - MAX_FIELD_ERRORS},
        )


def unprocessable_from(exc: ValidationError, loc_prefix: tuple[str | int, ...]) -> Unprocessable:
    errors = [
        FieldError(field_loc((*loc_prefix, *err["loc"])), err["msg"], err["type"])
        for err in exc.errors(include_url=False)
    ]
    fields = ", ".join(".".join(str(p) for p in e.loc) for e in errors[:5])
    return Unprocessable(f"Invalid request: {fields}.", errors=errors)
