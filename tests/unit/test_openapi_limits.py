"""The OpenAPI document states the bounds and defaults this deployment enforces: they
are read from the app's `Limits`, the same values the handlers read."""

from __future__ import annotations

from typing import Any

import pytest

from service.app import openapi_document
from service.openapi import Configured
from service.settings import Limits, Settings

TRAVERSALS = (
    "/api/v1/lineage/{asset_id}",
    "/api/v1/lineage/{asset_id}/upstream",
    "/api/v1/lineage/{asset_id}/downstream",
    "/api/v1/lineage/{asset_id}/columns/{column}/upstream",
    "/api/v1/lineage/{asset_id}/columns/{column}/downstream",
)
PAGED = ("/api/v1/assets", "/api/v1/events", "/api/v1/lineage/edges", "/api/v1/tokens")


def _param(document: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    [found] = [p for p in document["paths"][path]["get"]["parameters"] if p["name"] == name]
    schema: dict[str, Any] = found["schema"]
    return schema


def test_traversal_depth_and_limit_follow_the_configured_limits() -> None:
    limits = Settings.from_env(
        {
            "GOVERNANCE_MAX_LINEAGE_DEPTH": "7",
            "GOVERNANCE_DEFAULT_LINEAGE_DEPTH": "6",
            "GOVERNANCE_MAX_LINEAGE_NODES": "300",
            "GOVERNANCE_DEFAULT_LINEAGE_NODES": "40",
        }
    ).limits
    document = openapi_document(limits)
    for path in TRAVERSALS:
        depth, limit = _param(document, path, "depth"), _param(document, path, "limit")
        assert (depth["minimum"], depth["maximum"], depth["default"]) == (1, 7, 6), path
        assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 300, 40), path


def test_page_sizes_and_the_bulk_ceiling_follow_the_configured_limits() -> None:
    document = openapi_document(Limits(max_page_size=80, default_page_size=20, max_bulk_edges=9))
    for path in PAGED:
        limit = _param(document, path, "limit")
        assert (limit["maximum"], limit["default"]) == (80, 20), path
    bulk = document["paths"]["/api/v1/lineage/bulk"]["post"]["requestBody"]
    assert bulk["content"]["application/json"]["schema"]["maxItems"] == 9


def test_query_and_policy_bodies_document_the_configured_bounds() -> None:
    limits = Limits(max_lineage_depth=60, max_lineage_nodes=300, default_lineage_nodes=40)
    schemas = openapi_document(limits)["components"]["schemas"]
    for model in ("Query", "CypherQuery"):
        assert schemas[model]["properties"]["limit"]["maximum"] == 300, model
    walk = schemas["Traverse"]["properties"]
    assert (walk["min_depth"]["maximum"], walk["max_depth"]["maximum"]) == (60, 60)
    assert schemas["PathQuery"]["properties"]["max_depth"]["maximum"] == 60
    for model in ("PolicyFields", "PolicyReplace"):
        for variant in schemas[model]["oneOf"]:
            depth = variant["properties"]["params"].get("properties", {}).get("max_depth")
            if depth is not None:  # the lineage kinds: at most, and absent, the deepest walk
                assert (depth["anyOf"][0]["maximum"], depth["default"]) == (60, 60), variant


def test_the_defaults_document_the_declared_defaults() -> None:
    document = openapi_document(Settings.from_env({}).limits)
    depth = _param(document, "/api/v1/lineage/{asset_id}", "depth")
    assert (depth["maximum"], depth["default"]) == (50, 5)
    assert not list(_unresolved(document))


def _unresolved(value: Any) -> Any:
    """Every `Configured` still in the document (orjson would write one as an object)."""
    if isinstance(value, Configured):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _unresolved(item)
    elif isinstance(value, list):
        for item in value:
            yield from _unresolved(item)


def test_a_configured_number_names_a_field_of_limits() -> None:
    with pytest.raises(ValueError, match="max_lineage_deepness"):
        Configured("max_lineage_deepness")
