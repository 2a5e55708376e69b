"""A domain's `asset` rule names the asset however its id is typed: the value is kept
as the service spells asset ids, and a value that can be no id is refused at the value."""

from __future__ import annotations

import unicodedata
from urllib.parse import quote

import httpx

COMPOSED = "café.orders"
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)


def test_an_asset_rule_typed_in_another_unicode_form_places_the_asset(
    admin: httpx.Client,
) -> None:
    assert admin.put("/teams/fin", json={}).status_code in (200, 201)
    made = admin.put(f"/assets/{quote(COMPOSED)}", json={"name": "orders", "type": "table"})
    assert made.status_code == 201, made.text
    domain = admin.put(
        "/domains/cafe",
        json={"owner_team": "fin", "rules": [{"kind": "asset", "value": DECOMPOSED}]},
    )
    assert domain.status_code == 201, domain.text
    assert domain.json()["rules"] == [{"kind": "asset", "value": COMPOSED}]
    assert admin.get(f"/assets/{quote(COMPOSED)}").json()["domain"] == "cafe"
    assert admin.get("/domains/cafe").json()["asset_count"] == 1


def test_an_asset_rule_that_can_be_no_id_is_refused_and_changes_nothing(
    admin: httpx.Client,
) -> None:
    assert admin.put("/teams/fin", json={}).status_code in (200, 201)
    refused = admin.put(
        "/domains/cafe",
        json={"owner_team": "fin", "rules": [{"kind": "asset", "value": "two words"}]},
    )
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["errors"][0]["loc"] == ["body", "rules", 0, "value"]
    assert "whitespace" in problem["errors"][0]["msg"]
    assert admin.get("/domains/cafe").status_code == 404
