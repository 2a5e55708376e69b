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
