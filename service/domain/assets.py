"""How an asset maps to a Neo4j node and back.

A node holds scalar and list properties only, so `columns` (a list of objects)
is kept as one JSON string, and each user property `k` as the node property
`prop.k`, where Cypher can filter on it natively (`a['prop.' + $key] = $value`).
"""

from __future__ import annotations

from typing import Any

import orjson

from service.models.assets import Asset, AssetFields, Column

PROPERTY_PREFIX = "prop."
WRITABLE = ("name", "type", "platform", "description", "owners", "tags", "columns", "properties")


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
        placeholder=bool(node.get("placeholder", False)),
        created_at=node["created_at"],
        updated_at=node["updated_at"],
        version=int(node["version"]),
    )


def writable_document(asset: Asset) -> dict[str, Any]:
    """The part of an asset a merge patch applies to."""
    return asset.model_dump(include=set(WRITABLE), exclude_none=True)
