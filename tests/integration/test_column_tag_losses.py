"""Deleting an asset or removing a column mapping takes away what columns downstream
inherited through it, and says so: one `column.tag.lost` per asset and tag, each column
with the column the tag came `from`, whether the column itself stays (it feeds others
or holds tags) or goes with the mappings (a column known only to them). A source in a
private domain is a stand-in to readers with no role there, as for any lost tag."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import neo4j

from service.settings import Settings
from tests.support.columns import put_with_columns
from tests.support.private_domain import make_private_domain
from tests.support.progress import newest_event


def _map(client: httpx.Client, source: str, target: str, column: str, into: str) -> None:
    rows = [{"source": source, "target": target, "columns": [{"source": column, "target": into}]}]
    answer = client.post("/lineage/bulk", json=rows)
    assert answer.status_code == 200, answer.text


def _changes(client: httpx.Client, after: int) -> dict[tuple[str, str, str], list[Any]]:
    """{(type, asset, tag): columns} of the `column.tag.*` events after `after`."""
    answer = client.get("/events", params={"after": after, "types": "column.tag.*", "limit": 500})
    assert answer.status_code == 200, answer.text
    found: dict[tuple[str, str, str], list[Any]] = {}
    for event in answer.json()["items"]:
        data = event["data"]
        found.setdefault((event["type"], data["asset_id"], data["tag"]), []).extend(data["columns"])
    return found


def _lost(column: str, asset: str, source: str) -> list[dict[str, Any]]:
    return [{"column": column, "from": {"asset": asset, "column": source}}]


def test_deleting_an_asset_announces_each_column_downstream_that_loses_a_tag(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    put_with_columns(writer, "src", {"email": ["pii", "gdpr"], "id": []})
    _map(writer, "src", "mid", "email", "email")  # mid.email feeds out: it stays
    _map(writer, "mid", "out", "email", "contact")
    _map(writer, "src", "solo", "email", "email")  # known only to this mapping: it goes
    put_with_columns(writer, "other", {"email": ["pii"]})  # mid.email keeps pii through other
    _map(writer, "other", "mid", "email", "email")
    start = newest_event(driver)

    assert writer.delete("/assets/src").status_code == 204

    from_src = ("src", "email")
    assert _changes(writer, start) == {
        ("column.tag.lost", "mid", "gdpr"): _lost("email", *from_src),
        ("column.tag.lost", "out", "gdpr"): _lost("contact", *from_src),
        ("column.tag.lost", "solo", "gdpr"): _lost("email", *from_src),
        ("column.tag.lost", "solo", "pii"): _lost("email", *from_src),
    }
    inherited = writer.get("/assets/out/columns").json()["columns"][0]["inherited"]
    assert [(i["tag"], i["from"]) for i in inherited] == [
        ("pii", {"asset": "other", "column": "email"})
    ]


def test_removing_a_mapping_announces_what_its_target_and_beyond_lose(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    put_with_columns(writer, "s", {"card": ["pci"]})
    _map(writer, "s", "t", "card", "card")  # t.card is known only to this mapping
    _map(writer, "s", "t2", "card", "card")
    _map(writer, "t2", "u", "card", "card")
    for target, lost in (
        ("t", {("column.tag.lost", "t", "pci"): _lost("card", "s", "card")}),
        (
            "t2",
            {
                ("column.tag.lost", "t2", "pci"): _lost("card", "s", "card"),
                ("column.tag.lost", "u", "pci"): _lost("card", "s", "card"),
            },
        ),
    ):
        start = newest_event(driver)
        removed = writer.delete("/lineage/edges", params={"source": "s", "target": target})
        assert removed.status_code == 204, removed.text
        assert _changes(writer, start) == lost, target


def test_a_writer_replacing_its_set_announces_what_the_mappings_it_drops_carried(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    put_with_columns(writer, "s", {"card": ["pci"]})
    rows = [
        {"source": "s", "target": target, "columns": [{"source": "card", "target": "card"}]}
        for target in ("t", "t2")
    ]
    made = writer.post("/lineage/bulk", params={"origin": "etl", "replace": "true"}, json=rows)
    assert made.status_code == 200, made.text
    _map(writer, "t2", "u", "card", "card")  # t2.card feeds u: it stays; t.card goes
    start = newest_event(driver)

    kept = writer.post("/lineage/bulk", params={"origin": "etl", "replace": "true"}, json=[])
    assert kept.status_code == 200, kept.text

    assert _changes(writer, start) == {
        ("column.tag.lost", "t", "pci"): _lost("card", "s", "card"),
        ("column.tag.lost", "t2", "pci"): _lost("card", "s", "card"),
        ("column.tag.lost", "u", "pci"): _lost("card", "s", "card"),
    }


def test_a_deleted_private_source_is_a_stand_in_to_readers_without_a_role(
    admin: httpx.Client,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
) -> None:
    vault = make_private_domain(
        admin, make_settings(), {"vaultasset.src": "sealed", "open.stage": "stage"}
    )
    put_with_columns(admin, "vaultasset.src", {"secretcol": ["pii"]})
    _map(admin, "vaultasset.src", "open.stage", "secretcol", "email")
    start = newest_event(driver)

    assert admin.delete("/assets/vaultasset.src").status_code == 204

    key = ("column.tag.lost", "open.stage", "pii")
    assert _changes(admin, start) == {key: _lost("email", "vaultasset.src", "secretcol")}
    assert _changes(client_of(vault.insider), start) == _changes(admin, start)
    outsider = client_of(vault.outsider)
    assert _changes(outsider, start) == {key: _lost("email", "redacted:1", "redacted:1")}
    seen = outsider.get("/events", params={"after": start, "limit": 500})
    assert seen.status_code == 200, seen.text
    assert "vaultasset" not in seen.text and "secretcol" not in seen.text
