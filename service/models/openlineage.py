"""OpenLineage RunEvent bodies, shaped after the OpenLineage JSON schema
(RunEvent 2-0-2 and the facets this service reads), and the answer to an ingestion.

Types are strict and the fields the spec requires are required; unknown properties
and facets are allowed, as the spec lets producers add their own, but every facet
must be an object. Only the `sql` job facet and the `schema` and `columnLineage`
dataset facets are read; they are validated in full.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

from service.models.assets import MAX_COLUMNS
from service.models.common import ResponseModel, keys_by_pattern
from service.models.datasets import DatasetIdPart, check_id_fits
from service.models.lineage import ColumnName, Edge, EdgeIn, Retired, Transformation

EventType = Literal["START", "RUNNING", "COMPLETE", "ABORT", "FAIL", "OTHER"]
Name = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
Text = Annotated[str, StringConstraints(max_length=65_536)]
Uri = Annotated[str, StringConstraints(min_length=1, max_length=2048)]
Facet = dict[str, Any]


def _uuid(value: str) -> str:
    try:
        uuid.UUID(value)
    except ValueError:
        raise ValueError("runId must be a UUID") from None
    return value


def _date_time(value: str) -> str:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("eventTime must be an RFC 3339 date-time") from None
    try:  # the service orders events by their UTC time
        if moment.tzinfo is not None:
            moment.astimezone(UTC)
    except OverflowError:
        raise ValueError("eventTime must fall within the years 1 to 9999 in UTC") from None
    return value


class OpenLineageModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class Facets(OpenLineageModel):
    """Facets by name; those this service does not read are objects of any shape."""

    __pydantic_extra__: dict[str, Facet] = Field(init=False)


class SchemaField(OpenLineageModel):
    name: ColumnName
    type: Annotated[str, StringConstraints(max_length=256)] | None = None
    description: Text | None = None
    fields: list[SchemaField] | None = Field(
        default=None, description="nested fields of a struct; not read"
    )


class SchemaFacet(OpenLineageModel):
    fields: Annotated[list[SchemaField], Field(max_length=MAX_COLUMNS)] | None = None


class FieldTransformation(OpenLineageModel):
    type: Name
    subtype: Name | None = None
    description: Text | None = None
    masking: bool | None = None


class DatasetRef(OpenLineageModel):
    """A dataset by `namespace` and `name`; the service resolves it to the asset holding it."""

    namespace: DatasetIdPart
    name: DatasetIdPart

    @field_validator("name")
    @classmethod
    def _id_fits(cls, name: str, info: ValidationInfo) -> str:
        return check_id_fits(info.data.get("namespace"), name)


class InputField(DatasetRef):
    field: ColumnName
    transformations: list[FieldTransformation] | None = None


class ColumnLineageField(OpenLineageModel):
    inputFields: list[InputField]
    transformationDescription: Text | None = None
    transformationType: Name | None = None


class ColumnLineageFacet(OpenLineageModel):
    fields: dict[ColumnName, ColumnLineageField] = Field(json_schema_extra=keys_by_pattern)
    dataset: list[InputField] | None = None


class DatasetFacets(Facets):
    schema_: SchemaFacet | None = Field(default=None, alias="schema")
    columnLineage: ColumnLineageFacet | None = None


class Dataset(DatasetRef):
    facets: DatasetFacets | None = None


class InputDataset(Dataset):
    inputFacets: dict[str, Facet] | None = None


class OutputDataset(Dataset):
    outputFacets: dict[str, Facet] | None = None


class SqlFacet(OpenLineageModel):
    query: Transformation
    dialect: Name | None = None


class JobFacets(Facets):
    sql: SqlFacet | None = None


class Job(OpenLineageModel):
    namespace: Name
    name: Name
    facets: JobFacets | None = None


class Run(OpenLineageModel):
    runId: Annotated[str, AfterValidator(_uuid), Field(json_schema_extra={"format": "uuid"})]
    facets: dict[str, Facet] | None = None


class RunEvent(OpenLineageModel):
    """One OpenLineage RunEvent; an absent eventType reads as OTHER."""

    eventType: EventType | None = None
    eventTime: Annotated[
        str, AfterValidator(_date_time), Field(json_schema_extra={"format": "date-time"})
    ]
    producer: Uri
    schemaURL: Uri
    run: Run
    job: Job
    inputs: list[InputDataset] | None = None
    outputs: list[OutputDataset] | None = None


class RunEvents(
    RootModel[RunEvent | Annotated[list[RunEvent], Field(json_schema_extra={"minItems": 1})]]
):
    """`POST /lineage/openlineage`: one RunEvent or an array of them."""


class EdgeOrRunEvent(RootModel[EdgeIn | RunEvent]):
    """`POST /lineage`: an edge, or a RunEvent (recognised by `eventType`, `run`, `job`)."""


class Counts(ResponseModel):
    created: int
    existing: int


class AssetChanges(ResponseModel):
    created: int = Field(description="placeholder assets made for datasets not known before")
    updated: int = Field(description="assets whose columns a `schema` facet changed")


class OpenLineageResult(ResponseModel):
    received: int = Field(description="run events in the request")
    complete: int = Field(description="COMPLETE events: the ones that carry lineage")
    runs: int = Field(description="distinct runs whose state was recorded")
    edges: Counts = Field(description="edges (input -> output) by writer, new or existing")
    column_mappings: Counts
    assets: AssetChanges
    warnings: list[str]
    retired: Retired = Field(
        default_factory=Retired,
        description="what jobs asserted before and their newest COMPLETE run here no longer "
        "does (summed over the jobs)",
    )


class EdgeOrOpenLineageResult(RootModel[Edge | OpenLineageResult]):
    """`POST /lineage` answers the edge, or for a RunEvent the ingestion summary."""
