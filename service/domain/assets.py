"""How an asset maps to a Neo4j node and back.

A node holds scalar and list properties only, so `columns` (a list of objects)
is kept as one JSON string, and each user property `k` as the node property
`prop.k`, where Cypher can filter on it natively (`a['prop.' + $key] = $value`).
A dataset is kept normalised as `dataset_namespace` and `dataset_name`, and as
`dataset_key` (both together), which a unique constraint keeps to one holder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import orjson

from service.domain import merge_patch
from service.domain.datasets import DatasetNameError, DatasetRef, normalise
from service.domain.domains import DBT_PROJECT_PROPERTY
from service.errors import validation_error
from service.models.assets import Asset, AssetFields, Column
from service.models.datasets import Dataset, DatasetIn
from service.models.validation import validate

PROPERTY_PREFIX = "prop."
WRITABLE = (
    "name",
    "type",
    "platform",
    "description",
    "owners",
    "tags",
    "columns",
    "properties",
    "dataset",
)
# Kept across a replace: what the asset became through merges, not what a writer sends.
IDENTITY = ("aliases",)


def dataset_ref(dataset: DatasetIn, loc: tuple[str | int, ...] = ("body", "dataset")) -> DatasetRef:
    """The dataset normalised by its platform's naming rules; 422 at the part that is wrong."""
    try:
        return normalise(dataset.namespace, dataset.name)
    except DatasetNameError as exc:
        raise validation_error((*loc, exc.field), str(exc), "invalid_dataset") from exc


def dataset_properties(ref: DatasetRef | None) -> dict[str, Any]:
    if ref is None:
        return {}
    return {"dataset_namespace": ref.namespace, "dataset_name": ref.name, "dataset_key": ref.key}


def node_properties(asset_id: str, fields: AssetFields) -> dict[str, Any]:
    """The node's user-written properties; timestamps and version are the query's job."""
    props: dict[str, Any] = {
        "id": asset_id,
        "name": fields.name,
        "type": fields.type,
        "platform": fields.platform,
        "description": fields.description,
        "owners": list(fields.owners),
        "tags": list(fields.tags),
        "columns_json": orjson.dumps(
            [c.model_dump(exclude_none=True) for c in fields.columns]
        ).decode()
        if fields.columns
        else None,
        "placeholder": False,
    }
    for key, value in fields.properties.items():
        props[PROPERTY_PREFIX + key] = value
    if fields.dataset is not None:
        props.update(dataset_properties(dataset_ref(fields.dataset)))
    return {k: v for k, v in props.items() if v is not None}


def from_node(node: dict[str, Any]) -> Asset:
    columns = orjson.loads(node["columns_json"]) if node.get("columns_json") else []
    return Asset(
        id=node["id"],
        name=node["name"],
        type=node["type"],
        platform=node.get("platform"),
        description=node.get("description"),
        owners=list(node.get("owners") or []),
        tags=list(node.get("tags") or []),
        columns=[Column.model_validate(c) for c in columns],
        properties={
            k[len(PROPERTY_PREFIX) :]: v for k, v in node.items() if k.startswith(PROPERTY_PREFIX)
        },
        dataset=Dataset(namespace=node["dataset_namespace"], name=node["dataset_name"])
        if node.get("dataset_key")
        else None,
        aliases=list(node.get("aliases") or []),
        placeholder=bool(node.get("placeholder", False)),
        domain=node.get("domain"),
        created_at=node["created_at"],
        updated_at=node["updated_at"],
        version=int(node["version"]),
    )


def writable_document(asset: Asset) -> dict[str, Any]:
    """The part of an asset a merge patch applies to."""
    return asset.model_dump(include=set(WRITABLE), exclude_none=True)


def patched(asset: Asset, document: Mapping[str, Any]) -> AssetFields:
    """The fields a merge patch leaves the asset with, validated whole (422 naming the
    field), as the patch's write makes them; an `id` repeated as read is no field."""
    rest = {k: v for k, v in document.items() if k != "id"}
    return validate(AssetFields, merge_patch.apply(writable_document(asset), rest))


class Placeable(Protocol):
    """What the domain rules read of an asset: an asset, its fields, a dbt upload's."""

    @property
    def tags(self) -> Sequence[str]: ...

    @property
    def properties(self) -> Mapping[str, Any]: ...


def placing(asset_id: str, fields: Placeable) -> dict[str, Any]:
    """What the domain rules read of an asset with these fields (`domains.READS`)."""
    return {
        "id": asset_id,
        "tags": list(fields.tags),
        DBT_PROJECT_PROPERTY: fields.properties.get("dbt_project"),
    }
