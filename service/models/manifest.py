"""The answer to a dbt manifest upload (CONTRACT §4)."""

from __future__ import annotations

from service.models.common import ResponseModel


class AssetCounts(ResponseModel):
    created: int
    updated: int


class EdgeCounts(ResponseModel):
    created: int
    existing: int
    removed: int


class RuleCounts(ResponseModel):
    created: int
    updated: int
    removed: int


class ManifestSummary(ResponseModel):
    project: str
    dbt_version: str | None
    dbt_schema_version: str | None
    assets: AssetCounts
    edges: EdgeCounts
    quality_rules: RuleCounts
    skipped: int
    warnings: list[str]
