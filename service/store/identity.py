"""One asset per physical dataset: ids that follow merges, datasets that find their
holder, and the merge that joins two assets into one (`cypher/identity/`).

An asset merged into another leaves its id behind as an alias, so every read and
write that takes an id resolves it first and acts on the asset it names now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service import clock
from service.domain.datasets import DatasetRef, platform_of
from service.domain.dbt.identity import HolderInfo
from service.domain.domains import DomainRules, placement
from service.domain.lineage import COLUMN_SEPARATOR
from service.driver_errors import ConcurrentChange
from service.errors import Conflict
from service.graph import Graph, Reader, Tx
from service.store import asset_versions, history
from service.store.outbox import emit


async def resolve(tx: Reader | Tx, asset_id: str) -> str:
    """The id of the asset `asset_id` names now (itself when it is no alias)."""
    return str((await tx.run("identity.resolve", id=asset_id))[0]["id"])


async def resolve_read(graph: Graph, asset_id: str) -> str:
    return await graph.read_session(lambda reader: resolve(reader, asset_id))


async def aliased(tx: Reader | Tx, ids: Iterable[str]) -> dict[str, str]:
    """Of `ids`, the aliases, each with the id of the asset it names now."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await tx.run("identity.resolve_many", ids=wanted)
    return {alias: current for alias, current in rows[0]["aliased"]}


async def aliased_read(graph: Graph, ids: Iterable[str]) -> dict[str, str]:
    wanted = list(ids)
    return await graph.read_session(lambda reader: aliased(reader, wanted)) if wanted else {}


async def holders(tx: Reader | Tx, keys: Sequence[str]) -> dict[str, HolderInfo]:
    rows = await tx.run("identity.holders", keys=sorted(set(keys)))
    return {
        row["key"]: HolderInfo(row["id"], bool(row["placeholder"]), bool(row["weak"]))
        for row in rows
    }


def taken(dataset: DatasetRef, holder: str) -> Conflict:
    return Conflict(
        f"The dataset {dataset.namespace} {dataset.name} is held by the asset {holder!r}; "
        "an asset created explicitly cannot take it over.",
        code="dataset_taken",
        extra={"holder": holder, "dataset": {"namespace": dataset.namespace, "name": dataset.name}},
    )


async def ensure_datasets(
    tx: Tx,
    refs: Sequence[DatasetRef],
    now: str,
    rules: DomainRules,
    ids: Mapping[str, str] | None = None,
) -> tuple[dict[str, str], int]:
    """(dataset key -> id of the asset holding it, placeholders made). A dataset nobody
    holds gets a placeholder `<namespace>/<name>` (or the id `ids` gives for its key),
    placed by `rules`;
    that id already naming an asset that holds another dataset is a conflict the
    caller cannot resolve (409)."""
    unique = {ref.key: ref for ref in refs}
    if not unique:
        return {}, 0
    rows = await tx.run(
        "identity.ensure_datasets",
        refs=[
            _placed_ref(r, (ids or {}).get(r.key, r.default_id), rules)
            for r in sorted(unique.values(), key=lambda r: r.key)
        ],
        now=now,
    )
    held: dict[str, str] = {}
    made = 0
    for key, asset_id, holds, created in rows[0]["rows"]:
        if holds != key:
            ref = unique[key]
            raise Conflict(
                f"The asset {asset_id!r} holds another dataset, so no asset can be made for "
                f"the dataset {ref.namespace} {ref.name} under that id.",
                code="dataset_taken",
                extra={"holder": asset_id},
            )
        held[key] = asset_id
        made += int(bool(created))
    if len(held) != len(unique):
        raise ConcurrentChange("a dataset's holder was deleted meanwhile")
    return held, made


def _placed_ref(ref: DatasetRef, asset_id: str, rules: DomainRules) -> dict[str, Any]:
    where = placement({"id": asset_id}, rules)
    return {
        "key": ref.key,
        "namespace": ref.namespace,
        "name": ref.name,
        "id": asset_id,
        "platform": platform_of(ref.namespace),
        "domain": where.get("domain"),
        "private": where.get("domain_private"),
    }


@dataclass(frozen=True)
class MergeResult:
    into: dict[str, Any]  # the surviving node's properties
    edges_moved: int
    columns_moved: int
    rules_moved: int


async def merge_into(tx: Tx, from_id: str, into_id: str, actor: str) -> MergeResult:
    """Join asset `from_id` into `into_id` in `tx`: edges (both ends), column lineage,
    quality rules, owners, tags and aliases move over, `from_id` becomes an alias, and
    one `asset.merged` event says so. Both nodes must exist."""
    locked = (await tx.run("identity.lock_pair", **{"from": from_id, "into": into_id}))[0]
    if locked["locked"] != 2:
        raise ConcurrentChange("an asset of a merge was deleted meanwhile")
    pair = {"from": from_id, "into": into_id}
    edges = (await tx.run("identity.merge_edges", **pair))[0]["moved"]
    columns = (await tx.run("identity.merge_columns", separator=COLUMN_SEPARATOR, **pair))[0]
    node = (await tx.run("identity.merge_node", **pair))[0]
    await history.record_assets(tx, [from_id, into_id], clock.now_iso())
    emit(tx, "asset.merged", {"from": from_id, "into": into_id}, actor)
    # `from_id` ends with a deletion that names `into_id`; `into_id` is recorded as the
    # caller leaves it (it writes the asset's own fields next, in the same transaction).
    asset_versions.record(tx, [from_id, into_id], clock.now_iso(), actor)
    return MergeResult(
        into=dict(node["asset"]),
        edges_moved=int(edges),
        columns_moved=int(columns["columns"]),
        rules_moved=int(node["rules"]),
    )
