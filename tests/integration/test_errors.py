"""Errors: problem+json everywhere, request ids, size and media-type limits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx

from tests.support.server import LiveServer

PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "code", "request_id"}


def _is_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert set(body) >= PROBLEM_KEYS and body["code"] == code and body["status"] == status
    assert body["request_id"] == response.headers["x-request-id"]
    return body


def test_malformed_json_is_400(writer: httpx.Client) -> None:
    response = writer.post(
        "/assets", content=b'{"id": ', headers={"content-type": "application/json"}
    )
    _is_problem(response, 400, "malformed_json")


def test_deep_nesting_and_invalid_utf8_are_400_not_500(writer: httpx.Client) -> None:
    deep = (
        b'{"id": "a", "name": "a", "type": "t", "properties": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    )
    _is_problem(
        writer.post("/assets", content=deep, headers={"content-type": "application/json"}),
        400,
        "malformed_json",
    )
    bad = b'{"id": "a\xff", "name": "a", "type": "t"}'
    _is_problem(
        writer.post("/assets", content=bad, headers={"content-type": "application/json"}),
        400,
        "malformed_json",
    )


def test_other_media_types_are_415(writer: httpx.Client) -> None:
    response = writer.post("/assets", content=b"id=a", headers={"content-type": "text/plain"})
    _is_problem(response, 415, "unsupported_media_type")
    missing = writer.post("/assets", content=b'{"id": "a"}', headers={"content-type": ""})
    _is_problem(missing, 415, "unsupported_media_type")


def test_a_body_over_the_limit_is_413(writer: httpx.Client) -> None:
    huge = b'{"id": "a", "name": "' + b"x" * (11 * 1024 * 1024) + b'", "type": "t"}'
    response = writer.post("/assets", content=huge, headers={"content-type": "application/json"})
    _is_problem(response, 413, "payload_too_large")


def test_a_chunked_body_over_the_limit_is_413(writer: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"id": "a", "name": "'
        for _ in range(11):
            yield b"x" * (1024 * 1024)
        yield b'", "type": "t"}'

    response = writer.post(
        "/assets", content=chunks(), headers={"content-type": "application/json"}
    )
    _is_problem(response, 413, "payload_too_large")
    assert writer.get("/assets").json()["items"] == []


def test_unknown_routes_and_methods_are_problems(reader: httpx.Client, admin: httpx.Client) -> None:
    _is_problem(reader.get("/nothing-here"), 404, "route_not_found")
    _is_problem(admin.request("TRACE", "/assets"), 405, "method_not_allowed")


def test_request_id_is_echoed_or_made(reader: httpx.Client, live: LiveServer) -> None:
    assert (
        reader.get("/assets", headers={"X-Request-ID": "abc-123"}).headers["x-request-id"]
        == "abc-123"
    )
    made = reader.get("/assets", headers={"X-Request-ID": "bad id with spaces"}).headers[
        "x-request-id"
    ]
    assert made and " " not in made
    assert httpx.get(live.url + "/healthz").headers["x-request-id"]


def test_a_merge_patch_naming_no_field_is_422_whatever_its_value(writer: httpx.Client) -> None:
    """A null removes a key in a merge patch, so `{"bogus": null}` would validate as a
    no-op where `{"bogus": 1}` is refused: both are 422 naming the key, as the
    documented patch schemas (no additional properties) say, and nothing changes."""
    asset = writer.put("/assets/patched.asset", json={"name": "a", "type": "table"})
    policy = writer.post("/policies", json={"name": "p", "kind": "require_owner"})
    rule = writer.post(
        "/quality/rules",
        json={"asset_id": "patched.asset", "name": "r", "type": "not_null", "column": "c"},
    )
    made = [asset, policy, rule]
    assert [r.status_code for r in made] == [201, 201, 201], [r.text for r in made]
    urls = [
        "/assets/patched.asset",
        f"/policies/{policy.json()['id']}",
        f"/quality/rules/{rule.json()['id']}",
    ]
    patch_type = {"Content-Type": "application/merge-patch+json"}
    for url, before in zip(urls, made, strict=True):
        for body in ({"bogus": None}, {"": None}, {"bogus": 1}, {"name": "n", "bogus": None}):
            refused = writer.patch(url, json=body, headers=patch_type)
            problem = _is_problem(refused, 422, "validation_error")
            bad = [key for key in body if key != "name"]
            assert [e["loc"] for e in problem["errors"]] == [["body", key] for key in bad]
        assert writer.get(url).json() == before.json()
