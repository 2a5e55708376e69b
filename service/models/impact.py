"""The answer to a change-impact check of a candidate dbt manifest."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from service.models.common import ResponseModel


class _Aliased(ResponseModel):
    model_config = ConfigDict(frozen=True, serialize_by_alias=True, validate_by_name=True)


class ImpactChange(_Aliased):
    kind: str = Field(
        description="model_removed, source_removed, seed_removed, snapshot_removed, "
        "exposure_removed, analysis_removed (and *_added), column_removed, column_added, "
        "column_type_changed, materialization_changed, relation_changed, test_removed, "
        "test_added"
    )
    asset: str = Field(description="the asset changed (for a test: the asset it tests)")
    column: str | None = Field(description="the column changed or tested; null: the asset")
    from_: str | None = Field(
        alias="from",
        description="the stored value (a column's type, a materialization, a relation name, "
        "a removed test's id); null when not applicable",
    )
    to: str | None = Field(description="the candidate's value; null when not applicable")
    breaking: bool = Field(
        description="true for removals of what others read (models, seeds, snapshots, "
        "sources, columns, tests), a column retyped, a relation renamed or made ephemeral"
    )


class RedactedImpactChange(ImpactChange):
    """A change to an asset the caller may not read (a private domain where they hold no
    role): `asset` is its stand-in `redacted:<n>` (one per asset in the report), `column`
    `redacted:<m>` (one per column), `from` and `to` are null (they would tell its
    schema); it names only the owning `team`."""

    redacted: Literal[True]
    team: str | None = Field(description="the team owning the asset's domain")


class ImpactedAsset(ResponseModel):
    asset: str
    column: str | None = Field(
        description="the column derived (through column lineage) from what changed; null: "
        "the whole asset, which reads what changed with no column lineage to say which columns"
    )
    distance: int = Field(description="hops from the changed asset, the fewest")
    owners: list[str]
    via: list[str] = Field(
        description="the path from the changed asset (first) to this one (last): asset ids, "
        "or `asset.column` for a column"
    )


class RedactedImpactedAsset(ImpactedAsset):
    """An impacted asset the caller may not read: stand-ins for the asset and column as
    in a change, no `owners` (the owning `team` instead), and its stand-in in every
    `via` it lies on."""

    redacted: Literal[True]
    team: str | None = Field(description="the team owning the asset's domain")


class ImpactReport(ResponseModel):
    project: str
    changes: list[RedactedImpactChange | ImpactChange]
    impacted: list[RedactedImpactedAsset | ImpactedAsset] = Field(
        description="each asset (or column) once, at its fewest hops, nearest first; assets "
        "the candidate itself removes or changes are listed as changes instead"
    )
    breaking: bool = Field(description="whether any change is breaking")
    depth: int = Field(description="how many hops downstream the walk went at most")
    redacted: int = Field(
        0, description="stand-in assets in the report: assets the caller may not read"
    )
