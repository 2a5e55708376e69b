"""Bad input gets a problem naming the wrong field, and changes nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

VALID: dict[str, Any] = {"id": "t.orders", "name": "orders", "type": "table"}


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"id": None}, ["body", "id"]),
        ({"name": None}, ["body", "name"]),
        ({"type": None}, ["body", "type"]),
        ({"id": ""}, ["body", "id"]),
        ({"id": "x" * 513}, ["body", "id"]),
        ({"id": "has space"}, ["body", "id"]),
        ({"id": "ctl\u0007"}, ["body", "id"]),
        ({"id": 42}, ["body", "id"]),
        ({"name": 5}, ["body", "name"]),
        ({"name": ""}, ["body", "name"]),
        ({"type": "Not A Type!"}, ["body", "type"]),
        ({"owners": "ann"}, ["body", "owners"]),
        ({"tags": ["x" * 65]}, ["body", "tags", 0]),
        ({"tags": [""]}, ["body", "tags", 0]),
        ({"tags": [1]}, ["body", "tags", 0]),
        ({"columns": [{"type": "int"}]}, ["body", "columns", 0, "name"]),
        ({"properties": {"nested": {"a": 1}}}, ["body", "properties", "nested"]),
        ({"properties": {"list": [1]}}, ["body", "properties", "list"]),
        # Neo4j refuses NUL in a property's name (500 before): no control character
        ({"properties": {"a\u0000b": 1}}, ["body", "properties", "a\u0000b"]),
        ({"properties": {"line\nbreak": 1}}, ["body", "properties", "line\nbreak"]),
        ({"unknown_field": 1}, ["body", "unknown_field"]),
    ],
)
def test_invalid_asset_fields_are_422_naming_the_field(
    writer: httpx.Client, change: dict[str, Any], loc: list[Any]
) -> None:
    body = {k: v for k, v in {**VALID, **change}.items() if v is not None}
    response = writer.post("/assets", json=body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "validation_error"
    assert any(e["loc"][: len(loc)] == loc for e in problem["errors"]), problem["errors"]
    assert writer.get("/assets").json()["items"] == []


def test_a_body_that_is_not_an_object_is_422(writer: httpx.Client) -> None:
    for body in ([VALID], "text", 3):
        response = writer.post("/assets", json=body)
        assert response.status_code == 422


def test_open_type_vocabulary_is_lower_cased(writer: httpx.Client) -> None:
    response = writer.post("/assets", json={**VALID, "type": "Feature_Store"})
    assert response.status_code == 201 and response.json()["type"] == "feature_store"
