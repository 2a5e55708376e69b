"""An as_of walk shows each node from the trail it walks and each edge changed at most
once since the instant from scalars: every write path keeps a trail's display fields
equal to its live asset's (`shown_since` saying since when) and an edge history's
`prev_since_ms`/`prev_until_ms`/`prev_transformation` equal to what its arrays say, data
migrations fill both in on graphs written before, and the answers are the same either
way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import neo4j

from service.domain.history import instant_ms
from service.settings import Settings
from service.store import history
from tests.support.graphs import on_a_graph
from tests.support.history import moment, read
from tests.support.writes import edge

SHOWN = ("name", "type", "platform", "tags", "placeholder")
TRAILS = "MATCH (t:AssetTrail) RETURN t.id AS id, properties(t) AS shown ORDER BY id"
LIVE = (
    "MATCH (a:Asset) RETURN a.id AS id,"
    " a {.name, .type, .platform, .tags, .placeholder, .domain, .domain_private,"
    " shown_since: a.updated_at} AS shown"
)
HISTORIES = (
    "MATCH (s:AssetTrail)-[w:LINEAGE_WAS]->(t:AssetTrail)"
    " RETURN s.id + '>' + t.id AS pair, properties(w) AS h ORDER BY pair"
)
MERGE_PATCH = {"content-type": "application/merge-patch+json"}


def trails(driver: neo4j.Driver) -> dict[str, dict[str, Any]]:
    return {r["id"]: r["shown"] for r in driver.execute_query(TRAILS).records}


def histories(driver: neo4j.Driver) -> dict[str, dict[str, Any]]:
    return {r["pair"]: r["h"] for r in driver.execute_query(HISTORIES).records}


def assert_trails_show_the_live_assets(driver: neo4j.Driver, gone: set[str]) -> None:
    """Every trail equal to its live asset's display fields, or, for an asset in
    `gone`, to a placeholder's since it went."""
    live = {r["id"]: r["shown"] for r in driver.execute_query(LIVE).records}
    found = trails(driver)
    assert found
    for asset_id, trail in found.items():
        if asset_id in gone:
            assert asset_id not in live
            assert trail["placeholder"] is True and "name" not in trail, asset_id
            assert trail["shown_since"] is not None, asset_id
        else:
            # shown since the last write that changed what it shows, not the last write
            expected = {k: v for k, v in live[asset_id].items() if v is not None}
            assert trail["shown_since"] <= expected.pop("shown_since"), asset_id
            assert {k: v for k, v in trail.items() if k not in ("id", "shown_since")} == expected


def assert_previous_follows_the_arrays(driver: neo4j.Driver) -> None:
    found = histories(driver)
    assert found
    for pair, h in found.items():
        since, until = h["since"], h["until"]
        transformed, transformation = h["transformed"], h["transformation"]
        expected: tuple[int | None, int | None, str | None] = (None, None, None)
        if len(since) > 1:
            expected = (
                instant_ms(since[-2]),
                instant_ms(until[-2]),
                transformation[-2] if transformed[-2] else None,
            )
        previous = (h.get("prev_since_ms"), h.get("prev_until_ms"), h.get("prev_transformation"))
        assert previous == expected, pair


def shown(client: httpx.Client, root: str, **params: Any) -> dict[str, tuple[Any, ...]]:
    nodes = read(client, f"/lineage/{root}", **params)["nodes"]
    return {n["id"]: tuple(n[k] for k in SHOWN) for n in nodes}


def transformations(client: httpx.Client, root: str, at: str) -> dict[str, str | None]:
    edges = read(client, f"/lineage/{root}", as_of=at)["edges"]
    return {f"{e['source']}>{e['target']}": e["transformation"] for e in edges}


def test_every_asset_write_keeps_the_trail_showing_the_asset_as_it_is_now(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    made = writer.put(
        "/assets/orders", json={"name": "Orders", "type": "table", "platform": "pg", "tags": ["a"]}
    )
    assert made.status_code == 201, made.text
    edge(writer, "orders", "report")
    edge(writer, "report", "mart")
    assert_trails_show_the_live_assets(driver, gone=set())
    named = moment()
    # a change to nothing a lineage answer shows leaves the trail as it was
    since = trails(driver)["orders"]["shown_since"]
    described = writer.patch("/assets/orders", json={"description": "x"}, headers=MERGE_PATCH)
    assert described.status_code == 200, described.text
    assert trails(driver)["orders"]["shown_since"] == since

    patched = writer.patch("/assets/orders", json={"name": "All orders"}, headers=MERGE_PATCH)
    assert patched.status_code == 200, patched.text
    assert writer.put("/assets/report", json={"name": "Report", "type": "view"}).status_code == 201
    assert writer.put("/assets/mart", json={"name": "Mart", "type": "table"}).status_code == 201
    assert_trails_show_the_live_assets(driver, gone=set())
    assert trails(driver)["orders"]["shown_since"] > since
    renamed = moment()
    assert writer.delete("/assets/mart").status_code == 204
    assert_trails_show_the_live_assets(driver, gone={"mart"})

    # each instant shows the nodes as they were then: from the versions before the
    # trail's `shown_since`, from the trail after it
    orders: tuple[Any, ...] = ("Orders", "table", "pg", ["a"], False)
    report: tuple[Any, ...] = ("Report", "view", None, [], False)
    assert shown(writer, "report", as_of=named) == {
        "orders": orders,
        "report": ("report", "unknown", None, [], True),
        "mart": ("mart", "unknown", None, [], True),
    }
    assert shown(writer, "report", as_of=renamed) == {
        "orders": ("All orders", *orders[1:]),
        "report": report,
        "mart": ("Mart", "table", None, [], False),
    }
    today = {"orders": ("All orders", *orders[1:]), "report": report}
    assert shown(writer, "report", as_of=moment()) == shown(writer, "report") == today

    # named again by lineage alone: a placeholder, which records no version
    edge(writer, "report", "mart")
    assert_trails_show_the_live_assets(driver, gone=set())


def test_an_edge_changed_once_since_the_instant_shows_its_transformation_then(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    # b stays reachable through c, so the edge a>b is decided at every instant
    edge(writer, "a", "c")
    edge(writer, "c", "b")
    around = {"a>c": None, "c>b": None}
    instants = []
    for transformation in ("v1", "v2"):
        edge(writer, "a", "b", transformation=transformation)
        assert_previous_follows_the_arrays(driver)
        instants.append(moment())
    gone = writer.delete("/lineage/edges", params={"source": "a", "target": "b"})
    assert gone.status_code == 204
    instants.append(moment())
    edge(writer, "a", "b")
    # gone between the interval before the last and the last: decided by the scalars
    assert transformations(writer, "a", instants[2]) == around
    instants.append(moment())
    edge(writer, "a", "b", transformation="v4")
    assert_previous_follows_the_arrays(driver)

    # the last two intervals (and the gap between them) read the scalars, further back
    # the arrays: the same answers
    assert [transformations(writer, "a", at) for at in instants] == [
        {"a>b": "v1", **around},
        {"a>b": "v2", **around},
        around,
        {"a>b": None, **around},
    ]


def test_the_migrations_fill_trails_and_previous_intervals_written_before_them(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    for asset_id, name in (("m", "M"), ("o", "O")):
        made = writer.put(f"/assets/{asset_id}", json={"name": name, "type": "table"})
        assert made.status_code == 201, made.text
    edge(writer, "m", "n", transformation="v1")
    edge(writer, "n", "o")
    first = moment()
    edge(writer, "m", "n", transformation="v2")
    writer.patch("/assets/m", json={"name": "Em"}, headers=MERGE_PATCH)
    assert writer.delete("/assets/o").status_code == 204
    now = moment()
    written_trails, written_histories = trails(driver), histories(driver)
    answers = {at: read(writer, "/lineage/n", as_of=at) for at in (first, now)}
    # the shape an earlier version left: bare trails, histories without the previous interval
    driver.execute_query(
        "MATCH (t:AssetTrail) SET t = {id: t.id} WITH t"
        " MATCH (t)-[w:LINEAGE_WAS]->()"
        " REMOVE w.prev_since_ms, w.prev_until_ms, w.prev_transformation"
    )
    assert {at: read(writer, "/lineage/n", as_of=at) for at in answers} == answers

    # three trails shown again (`o` since it went), and the one history with a previous
    # interval
    assert on_a_graph(make_settings(), history.fill_trails) == 3
    assert trails(driver) == written_trails
    assert on_a_graph(make_settings(), history.fill_instants) == 1
    assert histories(driver) == written_histories
    assert on_a_graph(make_settings(), history.fill_trails) == 0
    assert on_a_graph(make_settings(), history.fill_instants) == 0
    assert {at: read(writer, "/lineage/n", as_of=at) for at in answers} == answers
    # an older version's migration gave the previous interval its start alone, a string
    driver.execute_query(
        "MATCH ()-[w:LINEAGE_WAS]->() WHERE w.prev_since_ms IS NOT NULL"
        " SET w.prev_since = w.since[-2]"
        " REMOVE w.prev_since_ms, w.prev_until_ms, w.prev_transformation"
    )
    assert {at: read(writer, "/lineage/n", as_of=at) for at in answers} == answers
    assert on_a_graph(make_settings(), history.fill_instants) == 1
    assert histories(driver) == written_histories
    assert {at: read(writer, "/lineage/n", as_of=at) for at in answers} == answers
    names = {at: {n["id"]: n["name"] for n in answers[at]["nodes"]} for at in answers}
    assert names == {first: {"m": "M", "n": "n", "o": "O"}, now: {"m": "Em", "n": "n"}}


def test_a_domain_change_keeps_the_trails_domain(admin: httpx.Client, driver: neo4j.Driver) -> None:
    admin.put("/teams/finance", json={}).raise_for_status()
    edge(admin, "orders", "report")
    body = {
        "owner_team": "finance",
        "private": True,
        "rules": [{"kind": "asset", "value": "report"}],
    }
    assert admin.put("/domains/sales", json=body).status_code == 201
    assert_trails_show_the_live_assets(driver, gone=set())
    assert trails(driver)["report"]["domain"] == "sales"

    assert admin.delete("/domains/sales").status_code == 204
    assert_trails_show_the_live_assets(driver, gone=set())
    assert "domain" not in trails(driver)["report"]
