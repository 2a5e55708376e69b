"""The OpenAPI document says which writes are checked per domain and what `/me` and a
traversal answer about domains."""

from typing import Any

import pytest

from service.app import MODULES
from service.openapi import build
from service.settings import Limits


def _document() -> dict[str, Any]:
    routes = [r for m in MODULES for r in m.routes]
    docs = {k: v for m in MODULES for k, v in m.docs.items()}
    return build(routes, docs, {"title": "t", "version": "1"}, Limits())


CHECKED = [
    ("/api/v1/assets", "post"),
    ("/api/v1/assets/{asset_id}", "put"),
    ("/api/v1/assets/{asset_id}", "patch"),
    ("/api/v1/assets/{asset_id}", "delete"),
    ("/api/v1/lineage", "post"),
    ("/api/v1/lineage/bulk", "post"),
    ("/api/v1/lineage/edges", "delete"),
    ("/api/v1/lineage/openlineage", "post"),
    ("/api/v1/lineage/manifest", "post"),
    ("/api/v1/lineage/sql", "post"),
]


@pytest.mark.parametrize(("path", "method"), CHECKED)
def test_a_write_checked_per_domain_documents_its_refusal(path: str, method: str) -> None:
    answer = _document()["paths"][path][method]["responses"]["403"]
    assert "domain_forbidden" in answer["description"]
    schema = answer["content"]["application/problem+json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/DomainForbidden"}


def test_other_writes_keep_the_plain_refusal() -> None:
    answer = _document()["paths"]["/api/v1/policies"]["post"]["responses"]["403"]
    assert "domain_forbidden" not in answer["description"]


def test_me_and_traversals_describe_domains() -> None:
    schemas = _document()["components"]["schemas"]
    assert {"teams", "domain_roles", "role", "scopes"} <= set(schemas["Me"]["properties"])
    assert "redacted" in schemas["LineageGraph"]["properties"]
    assert {"redacted", "team"} <= set(schemas["RedactedNode"]["properties"])
    assert {"assets", "assets_count"} <= set(schemas["DomainForbidden"]["allOf"][1]["properties"])
