"""Where a manifest's nodes meet the rest of the graph: the physical dataset each
model, seed, snapshot and source is, and what an upload does when another asset
already holds that dataset. Pure: the store reads the holders, this decides.

A model, seed or snapshot defines its table, so it claims the dataset: a placeholder
or a dbt source holding it is merged into the model; another model (or an asset
created through the API) holding it is a conflict the upload refuses. A source only
points at a table, so when another asset holds its dataset (a model of another
project, an API asset, another project's source), the source is that asset: its id
becomes an alias, and its edges and tests land on the holder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from service.domain.datasets import DatasetNameError, DatasetRef, dbt_dataset, normalise
from service.domain.dbt.contents import DbtAsset, ManifestContents

DATASET_TYPES = frozenset({"model", "seed", "snapshot", "source"})
WEAK_TYPES = frozenset({"source"})


@dataclass(frozen=True)
class HolderInfo:
    id: str
    placeholder: bool  # made by lineage: any claimant takes it over
    weak: bool  # placeholder, or an asset that only points at its table (a dbt source)


@dataclass
class Decision:
    """Redirects and conflicts only: a holder the claimant takes over is merged where
    the claimant's row is written (`takes_over`, checked again in that transaction, so
    a racing writer is seen), not decided here."""

    redirects: dict[str, str] = field(default_factory=dict)  # manifest id -> holder id
    conflicts: list[tuple[str, str, DatasetRef]] = field(default_factory=list)


def takes_over(holder: HolderInfo, claimant_weak: bool) -> bool:
    """Whether a claimant merges the holder of its dataset into itself."""
    return holder.placeholder or (holder.weak and not claimant_weak)


def upload_namespace(
    given: str | None, adapter: str | None, configured: Sequence[tuple[str, str]]
) -> str | None:
    """The namespace an upload's tables live in, normalised: the one the upload names,
    else the one configured for the manifest's adapter, else None. A bad one given
    raises DatasetNameError; a bad one configured is the operator's, and also raises."""
    if given is not None:
        return normalise(given, "_").namespace
    for name, namespace in configured:
        if name == (adapter or "").lower():
            return normalise(namespace, "_").namespace
    return None


def asset_datasets(
    contents: ManifestContents, namespace: str
) -> tuple[dict[str, DatasetRef], list[str]]:
    """(asset id -> dataset, warnings) for the nodes that are tables: named as dbt-ol
    names them, `database.schema.identifier` (the alias; a source's identifier)."""
    found: dict[str, DatasetRef] = {}
    warnings = []
    for asset in contents.assets:
        if asset.type not in DATASET_TYPES:
            continue
        try:
            found[asset.id] = dbt_dataset(
                contents.adapter or asset.platform or "",
                namespace,
                _text(asset, "database"),
                _text(asset, "schema"),
                _text(asset, "alias") or asset.name,
            )
        except DatasetNameError as exc:
            warnings.append(f"{asset.id}: holds no dataset ({exc})")
    return found, warnings


def _text(asset: DbtAsset, key: str) -> str | None:
    value = asset.properties.get(key)
    return value if isinstance(value, str) and value else None


def decide(
    assets: Mapping[str, DbtAsset],
    datasets: Mapping[str, DatasetRef],
    holders: Mapping[str, HolderInfo],
    aliases: Mapping[str, str],
) -> Decision:
    """`holders` by dataset key; `aliases`: manifest ids that are former ids, with the
    asset each names now (a source merged into a model earlier stays redirected)."""
    decision = Decision(redirects=dict(aliases))
    claimed: dict[str, str] = {}  # dataset key -> the manifest id that holds it here
    for asset_id in sorted(datasets):
        if asset_id in decision.redirects:
            continue
        ref = datasets[asset_id]
        weak = assets[asset_id].type in WEAK_TYPES
        first = claimed.setdefault(ref.key, asset_id)
        if first != asset_id:  # two nodes of one manifest name one table
            if weak:
                decision.redirects[asset_id] = first
            elif assets[first].type in WEAK_TYPES:
                decision.redirects[first] = asset_id
                claimed[ref.key] = asset_id
            else:
                decision.conflicts.append((asset_id, first, ref))
            continue
        holder = holders.get(ref.key)
        if holder is None or holder.id == asset_id:
            continue
        if takes_over(holder, weak):
            continue  # merged into `asset_id` as its row is written
        if weak:
            decision.redirects[asset_id] = holder.id
        else:
            decision.conflicts.append((asset_id, holder.id, ref))
    return decision


def redirected(contents: ManifestContents, redirects: Mapping[str, str]) -> ManifestContents:
    """The manifest with redirected nodes left out as assets, and their edges, column
    lineage and tests on the asset each names; an edge that would join an asset to
    itself is dropped."""
    if not redirects:
        return contents

    def to(asset_id: str) -> str:
        return redirects.get(asset_id, asset_id)

    edges = tuple(
        replace(e, source=to(e.source), target=to(e.target))
        for e in contents.edges
        if to(e.source) != to(e.target)
    )
    column_edges = tuple(
        replace(e, source=to(e.source), target=to(e.target))
        for e in contents.column_lineage.edges
        if to(e.source) != to(e.target)
    )
    return replace(
        contents,
        assets=tuple(a for a in contents.assets if a.id not in redirects),
        edges=edges,
        rules=tuple(replace(r, asset_id=to(r.asset_id)) for r in contents.rules),
        column_lineage=replace(contents.column_lineage, edges=column_edges),
    )


def weak_ids(contents: ManifestContents) -> set[str]:
    return {a.id for a in contents.assets if a.type in WEAK_TYPES}
