"""Shapes shared by every resource."""

from __future__ import annotations

from typing import Annotated, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict

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


AssetId = Annotated[str, AfterValidator(_check_id)]


class Page(ResponseModel, Generic[T]):
    items: list[T]
    next_cursor: str | None
