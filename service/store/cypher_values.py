"""Cypher values as JSON, for `POST /query/cypher`: a node becomes its element id,
labels and properties; a relationship its element id, type, end points and properties;
a path its nodes and relationships; temporal values ISO 8601 strings; a point its
SRID and coordinates; bytes base64; a float that JSON cannot hold (NaN, ±inf) null."""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from typing import Any

from neo4j.graph import Node, Path, Relationship
from neo4j.spatial import Point


def to_json(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Node):
        return _node(value)
    if isinstance(value, Relationship):
        return _relationship(value)
    if isinstance(value, Path):
        return {
            "nodes": [_node(n) for n in value.nodes],
            "relationships": [_relationship(r) for r in value.relationships],
        }
    if isinstance(value, Point):
        return {"srid": value.srid, "coordinates": [to_json(c) for c in value]}
    if hasattr(value, "iso_format"):  # neo4j.time values; Duration is a tuple underneath
        return str(value.iso_format())
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode("ascii")
    return str(value)


def _node(node: Node) -> dict[str, Any]:
    return {
        "element_id": node.element_id,
        "labels": sorted(node.labels),
        "properties": {k: to_json(v) for k, v in node.items()},
    }


def _relationship(rel: Relationship) -> dict[str, Any]:
    return {
        "element_id": rel.element_id,
        "type": rel.type,
        "start": rel.start_node.element_id if rel.start_node is not None else None,
        "end": rel.end_node.element_id if rel.end_node is not None else None,
        "properties": {k: to_json(v) for k, v in rel.items()},
    }
