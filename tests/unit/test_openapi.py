from typing import Any

import pytest
from starlette.routing import Route

from service.app import MODULES
from service.openapi import Doc, UndocumentedRoute, build
from service.settings import Limits


def _document() -> dict[str, Any]:
    routes = [r for m in MODULES for r in m.routes]
    docs = {k: v for m in MODULES for k, v in m.docs.items()}
    return build(routes, docs, {"title": "t", "version": "1"}, Limits())


def test_every_route_is_documented() -> None:
    document = _document()
    for module in MODULES:
        for route in module.routes:
            if not route.include_in_schema:
                continue
            path = route.path.replace(":path}", "}")
            for method in route.methods - {"HEAD"}:
                assert method.lower() in document["paths"][path], (method, path)


def test_secured_operations_name_their_scope_and_errors() -> None:
    op = _document()["paths"]["/api/v1/assets"]["post"]
    assert op["x-required-scope"] == "write"
    assert {"401", "403", "409", "422"} <= set(op["responses"])
    assert _document()["paths"]["/api/v1"]["get"]["security"] == []


def test_request_and_response_models_are_in_components() -> None:
    schemas = _document()["components"]["schemas"]
    assert {"Asset", "AssetCreate", "Problem", "TokenCreated"} <= set(schemas)
    assert "id" in schemas["AssetCreate"]["required"]


def test_a_route_without_doc_is_refused() -> None:
    async def handler() -> None: ...

    with pytest.raises(UndocumentedRoute):
        build([Route("/x", handler, name="x")], {"y": Doc("y", "t")}, {}, Limits())


def test_posts_document_the_idempotency_key_except_where_the_answer_holds_a_secret() -> None:
    paths = _document()["paths"]
    names = [p["name"] for p in paths["/api/v1/assets"]["post"]["parameters"]]
    assert "Idempotency-Key" in names
    for secret in ("/api/v1/tokens", "/api/v1/webhooks"):
        params = paths[secret]["post"].get("parameters", [])
        assert "Idempotency-Key" not in [p["name"] for p in params]
