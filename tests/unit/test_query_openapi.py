"""Both query operations are in the OpenAPI document with their bodies, answers and scopes."""

from __future__ import annotations

from typing import Any

from service.app import MODULES
from service.openapi import build
from service.settings import Limits


def _document() -> dict[str, Any]:
    routes = [r for m in MODULES for r in m.routes]
    docs = {k: v for m in MODULES for k, v in m.docs.items()}
    return build(routes, docs, {"title": "t", "version": "1"}, Limits())


def test_query_and_cypher_are_documented_with_models_and_scopes() -> None:
    document = _document()
    for path, scope, body, answer in (
        ("/api/v1/query", "read", "Query", "QueryResult"),
        ("/api/v1/query/cypher", "admin", "CypherQuery", "CypherResult"),
    ):
        op = document["paths"][path]["post"]
        assert op["x-required-scope"] == scope
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": f"#/components/schemas/{body}"}
        ok = op["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": f"#/components/schemas/{answer}"}
        assert {"400", "403", "415", "422"} <= set(op["responses"])


def test_the_query_schema_names_fields_as_clients_send_them() -> None:
    schemas = _document()["components"]["schemas"]
    assert {"start", "traverse", "path", "return", "limit", "cursor"} == set(
        schemas["Query"]["properties"]
    )
    assert {"from", "to", "through", "all_shortest"} <= set(schemas["PathQuery"]["properties"])
    assert schemas["Query"]["additionalProperties"] is False
    kinds = schemas["Filter"]["properties"]["type"]["anyOf"]
    assert {"type": "null"} in kinds and any(k.get("type") == "array" for k in kinds)
