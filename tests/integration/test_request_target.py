"""A request target that is not valid percent-encoded UTF-8 is the client's mistake:
400 with a problem naming it and a request id, never a 500, on every operation."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.support.server import LiveServer

PARAM = re.compile(r"\{[^}]+\}")


def operations_with_path_parameters(admin: httpx.Client) -> list[tuple[str, str]]:
    paths = admin.get("/openapi.json").json()["paths"]
    return [
        (method.upper(), path)
        for path, operations in paths.items()
        if PARAM.search(path)
        for method in operations
    ]


def test_every_path_parameter_refuses_broken_utf8_with_400(
    live: LiveServer, admin: httpx.Client
) -> None:
    operations = operations_with_path_parameters(admin)
    assert len(operations) >= 25
    refused = {}
    for method, path in operations:
        target = PARAM.sub("%FF", path)
        answer = admin.request(method, live.url + target, json={})
        refused[f"{method} {path}"] = (
            answer.status_code,
            answer.json().get("code"),
            bool(answer.headers.get("x-request-id")),
        )
    assert set(refused.values()) == {(400, "invalid_path", True)}, refused


def test_an_overlong_or_truncated_sequence_is_refused_too(admin: httpx.Client) -> None:
    for segment in ("%C0%AF", "%E2%82", "%ED%A0%80", "a%FFb"):
        answer = admin.get(f"/assets/{segment}")
        assert answer.status_code == 400, segment
        assert answer.json()["code"] == "invalid_path"


@pytest.mark.parametrize("query", ["q=%FF", "type=%C3", "q=ok&tag=%FE%FF"])
def test_a_query_string_with_broken_utf8_is_refused(admin: httpx.Client, query: str) -> None:
    answer = admin.get(f"/assets?{query}")
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "invalid_query"
    assert answer.headers["x-request-id"]


def test_valid_utf8_in_paths_and_queries_still_works(admin: httpx.Client) -> None:
    asset = {"id": "lake/café.parquet", "name": "café", "type": "file"}
    assert admin.post("/assets", json=asset).status_code == 201
    assert admin.get("/assets/lake%2Fcaf%C3%A9.parquet").json()["name"] == "café"
    found = admin.get("/assets?q=caf%C3%A9").json()["items"]
    assert [a["id"] for a in found] == ["lake/café.parquet"]
