"""What reading a dbt manifest yields: plain frozen values, and the one error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Loc = tuple[str | int, ...]
PropertyValue = str | int | float | bool


class ManifestError(ValueError):
    """The document is not a dbt manifest this service can read (API: 422 invalid_manifest).

    `loc` says where, as keys and list indexes from the document's root, e.g.
    ``("nodes", "model.shop.orders", "depends_on", "nodes", 0)``; `msg` says what is wrong.
    """

    def __init__(self, msg: str, loc: Loc = ()) -> None:
        where = " > ".join(str(part) for part in loc)
        super().__init__(f"{where}: {msg}" if loc else msg)
        self.msg = msg
        self.loc = loc


@dataclass(frozen=True, slots=True)
class DbtColumn:
    name: str
    type: str | None
    description: str | None
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DbtAsset:
    """One model, seed, snapshot, analysis, source or exposure, shaped like an asset."""

    id: str
    name: str
    type: str
    platform: str | None
    description: str | None
    owners: tuple[str, ...]
    tags: tuple[str, ...]
    columns: tuple[DbtColumn, ...]
    properties: dict[str, PropertyValue]


@dataclass(frozen=True, slots=True)
class DbtEdge:
    """Lineage parent -> child; `transformation` is the child's SQL (compiled, else raw)."""

    source: str
    target: str
    transformation: str | None


@dataclass(frozen=True, slots=True)
class DbtRule:
    """One dbt data test, shaped like a quality rule."""

    id: str
    asset_id: str
    column: str | None
    name: str
    type: str
    params: dict[str, Any]
    severity: str


@dataclass(frozen=True, slots=True)
class DbtColumnEdge:
    """Column lineage: `source_column` of the parent `source` feeds `target_column` of
    `target`; `transformation` is the SQL expression that computes it, if not a copy,
    and `kind` what it does to the values (`service.domain.column_kinds`)."""

    source: str
    source_column: str
    target: str
    target_column: str
    transformation: str | None
    kind: str = "identity"


@dataclass(frozen=True, slots=True)
class ColumnLineage:
    """What the compiled SQL of a manifest's nodes says about their columns.

    `nodes` counts nodes whose SQL yielded column lineage; `skipped` those with compiled
    SQL that yielded none (unparseable, not a query, no parent relation named);
    `unresolved_columns` output columns that could not be traced (fully or in part).
    """

    edges: tuple[DbtColumnEdge, ...] = ()
    nodes: int = 0
    skipped: int = 0
    unresolved_columns: int = 0
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ManifestContents:
    """Everything the service ingests from one manifest.

    `skipped` counts node entries deliberately left out: entries of `nodes`,
    `sources` and `exposures` that are disabled (`config.enabled: false`), entries
    of `nodes` whose resource type is neither an asset nor a data test
    (operations, sql operations, RPC calls, unknown future types), data tests that
    cannot be attached to an ingested asset (each also gets a warning), and every
    node listed in the top-level `disabled` map. Metrics, semantic models, saved
    queries, unit tests, groups, macros, docs and functions live in their own maps;
    they are not nodes, are never read as assets and are not counted.
    """

    project: str
    dbt_version: str | None
    schema_version: str | None
    adapter: str | None
    assets: tuple[DbtAsset, ...]
    edges: tuple[DbtEdge, ...]
    rules: tuple[DbtRule, ...]
    skipped: int
    warnings: tuple[str, ...]
    column_lineage: ColumnLineage = ColumnLineage()
