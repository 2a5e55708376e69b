"""Assets, policies and quality rules answer conditional requests alike: a GET whose
If-None-Match names the current ETag is 304, a write whose If-Match is no list of
entity tags is 400 naming the header, one that names another version is 412, and
every write answers the ETag of the version it leaves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

PATCH_TYPE = {"Content-Type": "application/merge-patch+json"}


@dataclass(frozen=True)
class Resource:
    name: str
    make: Callable[[httpx.Client], str]  # makes one at version 1, answers its URL
    body: dict[str, Any]  # a PUT body that changes it


def _asset(client: httpx.Client) -> str:
    made = client.put("/assets/orders", json={"name": "orders", "type": "table"})
    assert made.status_code == 201, made.text
    return "/assets/orders"


def _policy(client: httpx.Client) -> str:
    made = client.post("/policies", json={"name": "owners", "kind": "require_owner"})
    assert made.status_code == 201, made.text
    return f"/policies/{made.json()['id']}"


def _rule(client: httpx.Client) -> str:
    _asset(client)
    made = client.post(
        "/quality/rules", json={"asset_id": "orders", "name": "ids", "type": "not_null"}
    )
    assert made.status_code == 201, made.text
    return f"/quality/rules/{made.json()['id']}"


RESOURCES = [
    Resource("asset", _asset, {"name": "x", "type": "view"}),
    Resource("policy", _policy, {"name": "x", "kind": "require_description"}),
    Resource("quality rule", _rule, {"asset_id": "orders", "name": "x", "type": "unique"}),
]
each = pytest.mark.parametrize("resource", RESOURCES, ids=[r.name for r in RESOURCES])


def _write(
    client: httpx.Client, method: str, url: str, body: Any, **headers: str
) -> httpx.Response:
    if method == "PUT":
        return client.put(url, json=body, headers=headers)
    if method == "PATCH":
        return client.patch(url, json={"name": "changed"}, headers={**PATCH_TYPE, **headers})
    return client.delete(url, headers=headers)


@each
@pytest.mark.parametrize("header", ['"1"', 'W/"1"', '"7", W/"1"', "*"])
def test_a_get_whose_if_none_match_names_the_etag_is_304_without_a_body(
    writer: httpx.Client, reader: httpx.Client, resource: Resource, header: str
) -> None:
    url = resource.make(writer)
    answer = reader.get(url, headers={"If-None-Match": header})
    assert answer.status_code == 304, answer.text
    assert answer.headers["etag"] == '"1"' and answer.content == b""


@each
@pytest.mark.parametrize("header", ['"2"', 'W/"0"', "1", "garbage", ""])
def test_a_get_whose_if_none_match_names_no_current_etag_answers_the_item(
    writer: httpx.Client, reader: httpx.Client, resource: Resource, header: str
) -> None:
    url = resource.make(writer)
    answer = reader.get(url, headers={"If-None-Match": header})
    assert answer.status_code == 200, answer.text
    assert answer.headers["etag"] == '"1"' and answer.json()["version"] == 1


@each
@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("header", ["", "0", "abc", 'W/"', '"1",', '"1" "2"', "*, *"])
def test_a_malformed_if_match_is_400_naming_the_header_and_changes_nothing(
    writer: httpx.Client, resource: Resource, method: str, header: str
) -> None:
    url = resource.make(writer)
    answer = _write(writer, method, url, resource.body, **{"If-Match": header})
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["code"] == "invalid_header"
    assert [e["loc"] for e in problem["errors"]] == [["header", "If-Match"]]
    assert writer.get(url).json()["version"] == 1


@each
@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("header", ['"7"', 'W/"2"', '"abc"', '"0", "2"'])
def test_an_if_match_naming_another_version_is_412_and_changes_nothing(
    writer: httpx.Client, resource: Resource, method: str, header: str
) -> None:
    url = resource.make(writer)
    answer = _write(writer, method, url, resource.body, **{"If-Match": header})
    assert answer.status_code == 412, answer.text
    assert answer.json()["code"] == "precondition_failed"
    assert writer.get(url).json()["version"] == 1


@each
def test_every_write_answers_the_etag_of_the_version_it_leaves(
    writer: httpx.Client, resource: Resource
) -> None:
    url = resource.make(writer)
    put = _write(writer, "PUT", url, resource.body, **{"If-Match": 'W/"1"'})
    assert put.status_code == 200, put.text
    assert put.headers["etag"] == '"2"' and put.json()["version"] == 2
    patched = _write(writer, "PATCH", url, None, **{"If-Match": '"1", "2"'})
    assert patched.status_code == 200, patched.text
    assert patched.headers["etag"] == '"3"' and patched.json()["version"] == 3
    assert writer.get(url).headers["etag"] == '"3"'
    assert _write(writer, "DELETE", url, None, **{"If-Match": "*"}).status_code == 204
    assert writer.get(url).status_code == 404


@pytest.mark.parametrize(
    ("resource", "key", "value"),
    [
        (RESOURCES[1], "id", "pol_other"),
        (RESOURCES[1], "version", 9),
        (RESOURCES[1], "evaluated_at", "2026-01-01T00:00:00.000Z"),
        (RESOURCES[2], "id", "qr_other"),
        (RESOURCES[2], "status", "passing"),
        (RESOURCES[2], "created_at", "2026-01-01T00:00:00.000Z"),
    ],
    ids=lambda v: v.name if isinstance(v, Resource) else str(v),
)
def test_a_patch_naming_a_read_only_key_is_422_naming_it_and_changes_nothing(
    writer: httpx.Client, resource: Resource, key: str, value: Any
) -> None:
    """Policies and rules are patched by their definition fields only; the store keeps
    no second check of its own: the request is refused before it is reached."""
    url = resource.make(writer)
    answer = writer.patch(url, json={key: value}, headers=PATCH_TYPE)
    assert answer.status_code == 422, answer.text
    assert [e["loc"] for e in answer.json()["errors"]] == [["body", key]]
    assert writer.get(url).json()["version"] == 1
