"""An asset's columns as column classification sees them: direct and inherited tags."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field

from service.models.common import ResponseModel, StrictModel
from service.models.lineage import ColumnRef, MappingKind


class PathStep(ResponseModel):
    asset: str
    column: str
    kind: MappingKind | None = Field(
        default=None,
        description="the kind of the mapping into this column; null for the tagged column",
    )


class InheritedTag(ResponseModel):
    model_config = ConfigDict(frozen=True, serialize_by_alias=True, validate_by_name=True)

    tag: str
    from_: ColumnRef = Field(alias="from", description="the column that holds the tag directly")
    path: list[PathStep] = Field(
        description="why: the column-lineage path the tag came by, from the tagged column to "
        "this one, over fewest mappings (ties: by source column, then by the previous column)"
    )


class AssetColumn(ResponseModel):
    name: str
    type: str | None = None
    tags: list[str] = Field(description="the tags set on the column (the asset's `columns`)")
    inherited: list[InheritedTag] = Field(
        description="tags inherited along column lineage, one per tag, by tag"
    )


class AssetColumns(ResponseModel):
    asset: str
    columns: list[AssetColumn] = Field(
        description="the declared columns in their order, then columns known only to column "
        "lineage that hold or inherit a tag, by name"
    )


class ColumnTagRuleIn(StrictModel):
    stops: Annotated[list[MappingKind], Field(max_length=6)] = Field(
        description="the mapping kinds that stop the tag (any of identity, transformation, "
        "masking, aggregation, indirect, unknown; [] lets it through everything)"
    )


class ColumnTagRule(ResponseModel):
    tag: str
    stops: list[MappingKind] = Field(description="the mapping kinds that stop the tag")
    default: bool = Field(description="true while the tag has no rule of its own")
    updated_at: str | None = None
