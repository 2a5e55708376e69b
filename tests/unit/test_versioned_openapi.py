"""The document says what the versioned-resource core does, for each of the three."""

from typing import Any

import pytest

from service.app import MODULES
from service.domain.preconditions import IF_MATCH_PATTERN
from service.openapi import build
from service.settings import Limits

ITEMS = {
    "asset": "/api/v1/assets/{asset_id}",
    "policy": "/api/v1/policies/{policy_id}",
    "quality_rule": "/api/v1/quality/rules/{rule_id}",
}


def _document() -> dict[str, Any]:
    routes = [r for m in MODULES for r in m.routes]
    docs = {k: v for m in MODULES for k, v in m.docs.items()}
    return build(routes, docs, {"title": "t", "version": "1"}, Limits())


def _headers(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}


@pytest.mark.parametrize("name", ITEMS)
def test_each_get_documents_if_none_match_and_304(name: str) -> None:
    get = _document()["paths"][ITEMS[name]]["get"]
    assert get["operationId"] == f"get_{name}"
    assert {"200", "304", "404"} <= set(get["responses"])
    assert "content" not in get["responses"]["304"]
    assert _headers(get)["If-None-Match"]["schema"] == {"type": "string"}


@pytest.mark.parametrize("name", ITEMS)
def test_each_write_documents_the_if_match_pattern_400_and_412(name: str) -> None:
    paths = _document()["paths"][ITEMS[name]]
    for method in ("put", "patch", "delete"):
        operation = paths[method]
        assert operation["operationId"] == f"{method}_{name}"
        assert {"400", "404", "412"} <= set(operation["responses"])
        if_match = _headers(operation)["If-Match"]
        assert if_match["schema"]["pattern"] == IF_MATCH_PATTERN
        assert not if_match["required"]
