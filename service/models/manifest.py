"""The answer to a dbt manifest upload."""

from __future__ import annotations

from pydantic import Field

from service.models.common import ResponseModel


class AssetCounts(ResponseModel):
    created: int
    updated: int
    merged: int = Field(
        default=0,
        description="placeholders (and other projects' sources) holding a dataset of this "
        "manifest, merged into the node that defines it",
    )


class EdgeCounts(ResponseModel):
    created: int
    existing: int
    removed: int


class RuleCounts(ResponseModel):
    created: int
    updated: int
    removed: int


class ColumnLineageSummary(ResponseModel):
    """Column lineage derived from the compiled SQL of models, snapshots and analyses."""

    nodes: int = Field(description="nodes whose compiled SQL yielded column lineage")
    edges: EdgeCounts = Field(description="column mappings (origin `dbt:<project>`)")
    skipped: int = Field(
        description="nodes with compiled SQL that yielded none (unparseable, not a query, "
        "no parent relation named in it)"
    )
    unresolved_columns: int = Field(
        description="output columns not (fully) traced: a SELECT * over a relation whose "
        "columns are unknown, an ambiguous unqualified column, a relation that is not a parent"
    )
    warnings: list[str] = Field(description="one per node concerned; the first 100")


class ManifestSummary(ResponseModel):
    project: str
    dbt_version: str | None
    dbt_schema_version: str | None
    assets: AssetCounts
    edges: EdgeCounts
    quality_rules: RuleCounts
    skipped: int
    warnings: list[str]
    column_lineage: ColumnLineageSummary
