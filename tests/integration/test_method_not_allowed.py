"""A method a path does not take: 405 with `Allow` naming every method it does take,
whichever of the path's routes (one per method) the router tried first."""

from __future__ import annotations

import httpx
import pytest


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("OPTIONS", "/lineage/edges", {"GET", "HEAD", "DELETE"}),
        ("PATCH", "/assets", {"GET", "HEAD", "POST"}),
        ("POST", "/assets/some.table", {"GET", "HEAD", "PUT", "PATCH", "DELETE"}),
        ("PUT", "/tokens", {"GET", "HEAD", "POST"}),
    ],
)
def test_allow_lists_every_method_of_the_path(
    admin: httpx.Client, method: str, path: str, allowed: set[str]
) -> None:
    response = admin.request(method, path)
    assert response.status_code == 405
    assert response.headers["content-type"] == "application/problem+json"
    assert {m.strip() for m in response.headers["allow"].split(",")} == allowed
