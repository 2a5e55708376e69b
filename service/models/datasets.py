"""A physical dataset as OpenLineage names it: `{namespace, name}`.

Both parts hold only what an asset id may, since an asset made for a dataset that
nobody holds yet takes the id `<namespace>/<name>`: a dataset that could never be
an asset is refused where it first appears.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import (
    AfterValidator,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError

from service.ids import MAX_ID_LENGTH, id_problem, normalise
from service.models.common import DATASET_ID_PART_MARK, ResponseModel, StrictModel

# Each part is at most the id's length less the slash and the other part's character.
MAX_DATASET_PART = MAX_ID_LENGTH - 2


def _id_part(value: str) -> str:
    problem = id_problem(normalise(value))
    if problem:
        raise PydanticCustomError(
            "invalid_dataset_id",
            "part of the dataset's asset id (namespace/name): {problem}",
            {"problem": problem},
        )
    return value


# Marked for `service.openapi`, which points it at one component spelling the rule out.
DatasetIdPart = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_DATASET_PART),
    AfterValidator(_id_part),
    WithJsonSchema({"type": "string", DATASET_ID_PART_MARK: True}),
]


def check_id_fits(namespace: str | None, name: str) -> str:
    """`namespace/name` must fit an asset id; `namespace` is None when it was refused."""
    if namespace is not None:
        length = len(normalise(f"{namespace}/{name}"))
        if length > MAX_ID_LENGTH:
            raise PydanticCustomError(
                "invalid_dataset_id",
                "namespace/name is the dataset's asset id: at most {limit} characters"
                " together, not {length}",
                {"limit": MAX_ID_LENGTH, "length": length},
            )
    return name


class DatasetIn(StrictModel):
    """A dataset named in a request: an asset's own, or an edge's end."""

    namespace: DatasetIdPart
    name: DatasetIdPart

    @field_validator("name")
    @classmethod
    def _id_fits(cls, name: str, info: ValidationInfo) -> str:
        return check_id_fits(info.data.get("namespace"), name)


class Dataset(ResponseModel):
    """A dataset as stored: both parts normalised by the platform's naming rules."""

    namespace: str
    name: str
