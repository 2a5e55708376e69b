"""An asset's history as answered: its versions, newest first, with what changed."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from service.models.common import ResponseModel


class AssetChange(ResponseModel):
    """One difference from the version before: a field (`column` null) or, with
    `field` "columns", one column; `from` and `to` are the values (a column as
    declared: name, type, description, tags), null where there is none."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    field: str = Field(
        description="`name`, `type`, `platform`, `description`, `owners`, `tags`, `dataset`, "
        "`aliases`, `placeholder`, `deleted`, `merged_into`, `properties.<key>` or `columns`"
    )
    column: str | None = Field(default=None, description="the column's name, for `columns`")
    change: Literal["set", "added", "removed", "retyped", "changed"] = Field(
        description="`set` for a field; for a column `added`, `removed`, `retyped` (its type "
        "changed, maybe more) or `changed` (its description or tags only)"
    )
    from_: Any = Field(default=None, alias="from")
    to: Any = None


class AssetVersion(ResponseModel):
    version: int = Field(description="1 for the first version, one more for each after it")
    at: str = Field(description="when the change was written (RFC 3339, UTC)")
    actor: str = Field(
        description="who wrote it, as events name them (`token:<id>`, `user:<id>`, or "
        "`system` for a version recorded for an asset that existed before history was kept)"
    )
    deleted: bool = Field(description="true for the version that says the asset was deleted")
    changes: list[AssetChange]


class AssetHistoryPage(ResponseModel):
    items: list[AssetVersion]
    next_cursor: str | None
