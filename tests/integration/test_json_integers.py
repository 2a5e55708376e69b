"""A whole number written with a fraction of zero is an integer, as JSON Schema (and
so the OpenAPI document) counts it: 30.0 is taken where an integer is asked for, 30.5
is not."""

from __future__ import annotations

import httpx


def test_an_integral_float_is_taken_as_an_integer(admin: httpx.Client) -> None:
    made = admin.post("/tokens", json={"name": "t", "scopes": ["read"], "expires_in_days": 30.0})
    assert made.status_code == 201, made.text
    assert made.json()["expires_at"] is not None


def test_a_fractional_number_is_still_refused(admin: httpx.Client) -> None:
    refused = admin.post("/tokens", json={"name": "t", "scopes": ["read"], "expires_in_days": 30.5})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["loc"] == ["body", "expires_in_days"]
