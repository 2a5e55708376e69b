"""Request bodies in a content coding: gzip is read (with the same ceiling as a plain
body), anything else is 415 before the body is read, and nothing is written."""

from __future__ import annotations

import gzip

import httpx
import orjson
import pytest

ASSET = {"id": "coded.asset", "name": "coded", "type": "table"}


def post_asset(admin: httpx.Client, body: bytes, encoding: str) -> httpx.Response:
    return admin.post(
        "/assets",
        content=body,
        headers={"Content-Type": "application/json", "Content-Encoding": encoding},
    )


@pytest.mark.parametrize("encoding", ["br", "zstd", "deflate", "gzip, br", "gzip, gzip", "x"])
def test_a_coding_the_service_cannot_read_is_415_and_writes_nothing(
    admin: httpx.Client, encoding: str
) -> None:
    answer = post_asset(admin, orjson.dumps(ASSET), encoding)
    assert answer.status_code == 415
    assert answer.json()["code"] == "unsupported_content_encoding"
    assert answer.headers["accept-encoding"] == "gzip, identity"
    assert admin.get("/assets/coded.asset").status_code == 404


def test_uploads_refuse_unknown_codings_too(admin: httpx.Client) -> None:
    answer = admin.post(
        "/lineage/manifest",
        content=b"{}",
        headers={"Content-Type": "application/json", "Content-Encoding": "br"},
    )
    assert answer.status_code == 415


@pytest.mark.parametrize("encoding", ["gzip", "GZIP", "identity, gzip"])
def test_a_gzip_body_is_read(admin: httpx.Client, encoding: str) -> None:
    answer = post_asset(admin, gzip.compress(orjson.dumps(ASSET)), encoding)
    assert answer.status_code == 201, answer.text
    assert admin.get("/assets/coded.asset").json()["name"] == "coded"


def test_identity_is_no_coding(admin: httpx.Client) -> None:
    assert post_asset(admin, orjson.dumps(ASSET), "identity").status_code == 201


def test_damaged_gzip_is_400(admin: httpx.Client) -> None:
    damaged = gzip.compress(orjson.dumps(ASSET))[:-6]
    answer = post_asset(admin, damaged, "gzip")
    assert answer.status_code == 400
    assert answer.json()["code"] == "malformed_json"
    assert admin.get("/assets/coded.asset").status_code == 404


def test_a_gzip_body_that_inflates_past_the_body_limit_is_413(admin: httpx.Client) -> None:
    padded = {**ASSET, "description": "x" * (11 * 1024 * 1024)}
    bomb = gzip.compress(orjson.dumps(padded))
    assert len(bomb) < 100_000
    answer = post_asset(admin, bomb, "gzip")
    assert answer.status_code == 413
    assert admin.get("/assets/coded.asset").status_code == 404
