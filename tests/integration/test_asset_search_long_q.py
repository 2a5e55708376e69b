"""A long `q` is a scan, not a 500: Lucene refuses wildcards of about 1,000
characters or more (found by the API fuzzing run)."""

from __future__ import annotations

import httpx


def test_a_q_of_a_thousand_letters_lists_assets(admin: httpx.Client) -> None:
    long = "0" * 1024
    made = admin.post("/assets", json={"id": f"t.{long[:500]}", "name": "n", "type": "table"})
    assert made.status_code == 201, made.text
    listed = admin.get("/assets", params={"q": long})
    assert listed.status_code == 200, listed.text
    assert listed.json()["items"] == []
    found = admin.get("/assets", params={"q": long[:500]})
    assert [a["id"] for a in found.json()["items"]] == [f"t.{long[:500]}"]
