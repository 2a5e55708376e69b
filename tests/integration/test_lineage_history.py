"""Lineage through time: every edge and column mapping keeps its history, `as_of` reads
the graph as it stood, `/diff` compares two instants, retention forgets what ended
long ago, and the start-up backfill gives edges from before history a beginning."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import httpx
import neo4j

from service import clock, cypher
from service.domain.history import instant_ms
from service.settings import Settings
from service.store import history
from tests.support import plans
from tests.support.dbt_fixtures import NEWEST, manifest
from tests.support.graphs import on_a_graph
from tests.support.history import EDGE_FROM_BEFORE_HISTORY, moment, read
from tests.support.writes import edge

PG = "postgres://db:5432"


def ids(graph: dict[str, Any]) -> list[str]:
    return [n["id"] for n in graph["nodes"]]


def pairs(graph: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [(e["source"], e["target"], e["transformation"]) for e in graph["edges"]]


def intervals(driver: neo4j.Driver) -> int:
    """Every interval of every edge and column mapping history, and every origin's."""
    query = (
        "MATCH ()-[w:LINEAGE_WAS|COLUMN_LINEAGE_WAS]->() "
        "RETURN sum(size(w.since) + size(w.origin)) AS n"
    )
    return int(driver.execute_query(query).records[0]["n"] or 0)


# An edge written before history existed: assets and an edge with no trail.


def test_a_deleted_edge_is_there_as_of_before_its_deletion(writer: httpx.Client) -> None:
    edge(writer, "raw", "stg", transformation="t1")
    edge(writer, "stg", "mart")
    before = moment()
    deleted = writer.delete("/lineage/edges", params={"source": "stg", "target": "mart"})
    assert deleted.status_code == 204

    then = read(writer, "/lineage/raw/downstream", as_of=before)
    assert ids(then) == ["raw", "stg", "mart"]
    assert pairs(then) == [("raw", "stg", "t1"), ("stg", "mart", None)]
    assert ids(read(writer, "/lineage/raw/downstream")) == ["raw", "stg"]
    assert ids(read(writer, "/lineage/raw/downstream", as_of=clock.now_iso())) == ["raw", "stg"]
    assert ids(read(writer, "/lineage/mart", as_of=before, direction="upstream")) == [
        "mart",
        "stg",
        "raw",
    ]


def test_as_of_answers_in_the_shape_of_today_s_traversal(writer: httpx.Client) -> None:
    writer.post("/assets", json={"id": "orders", "name": "Orders", "type": "table"})
    edge(writer, "orders", "report")
    at = moment()
    today = read(writer, "/lineage/orders")
    assert read(writer, "/lineage/orders", as_of=at) == today
    # an offset is read as the instant it names; the future reads as now
    local = at.replace("Z", "+00:00")
    assert read(writer, "/lineage/orders", as_of=local) == today
    assert read(writer, "/lineage/orders", as_of="9999-01-01T00:00:00+02:00") == today


def test_a_renamed_asset_shows_as_it_was_named_then(writer: httpx.Client) -> None:
    writer.post("/assets", json={"id": "orders", "name": "Orders", "type": "table"})
    edge(writer, "src", "orders")
    before = moment()
    renamed = writer.patch(
        "/assets/orders",
        json={"name": "All orders"},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert renamed.status_code == 200, renamed.text
    names = {n["id"]: n["name"] for n in read(writer, "/lineage/src", as_of=before)["nodes"]}
    assert names["orders"] == "Orders"
    names = {n["id"]: n["name"] for n in read(writer, "/lineage/src")["nodes"]}
    assert names["orders"] == "All orders"


def test_as_of_before_the_root_existed_is_404(writer: httpx.Client) -> None:
    before = moment()
    writer.post("/assets", json={"id": "orders", "name": "Orders", "type": "table"})
    for path in ("/lineage/orders", "/lineage/orders/upstream", "/lineage/orders/downstream"):
        answer = writer.get(path, params={"as_of": before})
        assert answer.status_code == 404, answer.text
        assert answer.json()["code"] == "asset_not_found"
    assert writer.get("/lineage/orders", params={"as_of": moment()}).status_code == 200


def test_an_as_of_that_is_no_instant_is_422_naming_it(writer: httpx.Client) -> None:
    edge(writer, "a", "b")
    for bad in ("yesterday", "2026-01-01", "2026-01-01T00:00:00", "2026-13-01T00:00:00Z", ""):
        answer = writer.get("/lineage/a", params={"as_of": bad})
        assert answer.status_code == 422, (bad, answer.text)
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert [e["loc"] for e in answer.json()["errors"]] == [["query", "as_of"]]
        column = writer.get("/lineage/a/columns/id/upstream", params={"as_of": bad})
        assert column.status_code == 422, (bad, column.text)


def test_a_deleted_asset_and_its_edges_stay_in_the_past(writer: httpx.Client) -> None:
    writer.post("/assets", json={"id": "stg", "name": "Staging", "type": "view"})
    edge(writer, "raw", "stg")
    edge(writer, "stg", "mart")
    before = moment()
    assert writer.delete("/assets/stg").status_code == 204

    then = read(writer, "/lineage/raw/downstream", as_of=before)
    assert ids(then) == ["raw", "stg", "mart"]
    assert {n["id"]: n["name"] for n in then["nodes"]}["stg"] == "Staging"
    assert ids(read(writer, "/lineage/raw/downstream")) == ["raw"]
    assert ids(read(writer, "/lineage/stg", as_of=before)) == ["stg", "mart", "raw"]
    assert writer.get("/lineage/stg", params={"as_of": moment()}).status_code == 404


def test_a_pruned_dbt_edge_is_there_as_of_before_the_upload_that_dropped_it(
    writer: httpx.Client,
) -> None:
    document = manifest(NEWEST)
    upload = {"content-type": "application/json"}
    first = writer.post("/lineage/manifest", content=json.dumps(document), headers=upload)
    assert first.status_code == 200, first.text
    changed = copy.deepcopy(document)
    orders = changed["nodes"]["model.corner_shop.orders"]
    dropped = "model.corner_shop.stg_payments"
    orders["depends_on"]["nodes"] = [n for n in orders["depends_on"]["nodes"] if n != dropped]
    before = moment()
    second = writer.post("/lineage/manifest", content=json.dumps(changed), headers=upload)
    assert second.json()["edges"]["removed"] == 1

    root = "/lineage/model.corner_shop.orders/upstream"
    assert dropped in ids(read(writer, root, as_of=before, depth=1))
    assert dropped not in ids(read(writer, root, depth=1))


def test_an_identity_merge_moves_edges_and_the_past_keeps_the_former_asset(
    writer: httpx.Client,
) -> None:
    dataset = {"namespace": PG, "name": "shop.public.orders"}
    edge(writer, dataset, "report")
    (placeholder,) = [n for n in ids(read(writer, "/lineage/report")) if n != "report"]
    before = moment()
    created = writer.post(
        "/assets", json={"id": "orders", "name": "Orders", "type": "table", "dataset": dataset}
    )
    assert created.status_code == 201, created.text

    assert ids(read(writer, "/lineage/report", as_of=before)) == ["report", placeholder]
    assert ids(read(writer, "/lineage/report")) == ["report", "orders"]
    # the former id read then is the placeholder it named; read now, the asset it names
    former = "/lineage/" + quote(placeholder, safe="")
    assert ids(read(writer, former, as_of=before)) == [placeholder, "report"]
    assert read(writer, former, as_of=moment())["root"] == "orders"


def test_placeholders_read_as_placeholders_then_though_they_have_no_version(
    writer: httpx.Client,
) -> None:
    edge(writer, "raw", "mart")
    before = moment()
    made = writer.put("/assets/raw", json={"name": "Raw", "type": "table"})
    assert made.status_code == 201, made.text
    assert writer.delete("/assets/mart").status_code == 204

    then = read(writer, "/lineage/raw", as_of=before)
    shown = {n["id"]: (n["name"], n["type"], n["placeholder"]) for n in then["nodes"]}
    assert shown == {"raw": ("raw", "unknown", True), "mart": ("mart", "unknown", True)}
    # the deleted placeholder, never versioned, existed then: its edge did
    assert ids(read(writer, "/lineage/mart", as_of=before)) == ["mart", "raw"]
    now = read(writer, "/lineage/raw", as_of=moment())
    assert [(n["id"], n["name"], n["placeholder"]) for n in now["nodes"]] == [("raw", "Raw", False)]


def test_a_changed_transformation_reads_as_it_was_and_shows_in_the_diff(
    writer: httpx.Client,
) -> None:
    edge(writer, "a", "b", transformation="v1")
    before = moment()
    edge(writer, "a", "b", transformation="v2")

    assert pairs(read(writer, "/lineage/a", as_of=before)) == [("a", "b", "v1")]
    assert pairs(read(writer, "/lineage/a")) == [("a", "b", "v2")]
    changes = read(writer, "/lineage/a/diff", **{"from": before})
    assert changes["added"] == {"nodes": [], "edges": []}
    assert changes["removed"] == {"nodes": [], "edges": []}
    assert changes["changed"]["edges"] == [
        {"source": "a", "target": "b", "transformation": "v2", "previous_transformation": "v1"}
    ]


def test_the_diff_lists_added_and_removed_nodes_and_edges(writer: httpx.Client) -> None:
    edge(writer, "a", "b")
    edge(writer, "b", "old")
    start = moment()
    writer.delete("/lineage/edges", params={"source": "b", "target": "old"})
    edge(writer, "b", "new", transformation="x")
    end = moment()
    edge(writer, "b", "later")

    changes = read(writer, "/lineage/a/diff", **{"from": start, "to": end}, direction="downstream")
    assert (changes["root"], changes["from"], changes["to"]) == ("a", start, end)
    assert [(n["id"], n["distance"], n["direction"]) for n in changes["added"]["nodes"]] == [
        ("new", 2, "downstream")
    ]
    assert changes["added"]["edges"] == [{"source": "b", "target": "new", "transformation": "x"}]
    assert ids(changes["removed"]) == ["old"]
    assert changes["removed"]["edges"] == [{"source": "b", "target": "old", "transformation": None}]
    assert changes["changed"] == {"edges": []} and changes["truncated"] is False
    # `to` defaults to now
    assert ids(read(writer, "/lineage/a/diff", **{"from": start})["added"]) == ["later", "new"]


def test_diff_refuses_bad_instants_and_a_root_that_never_was(writer: httpx.Client) -> None:
    before = moment()
    edge(writer, "a", "b")
    after = moment()
    cases: list[tuple[dict[str, str], str]] = [
        ({}, "from"),
        ({"from": "soon"}, "from"),
        ({"from": before, "to": "later"}, "to"),
        ({"from": after, "to": before}, "from"),
    ]
    for params, field in cases:
        answer = writer.get("/lineage/a/diff", params=params)
        assert answer.status_code == 422, (params, answer.text)
        assert [e["loc"] for e in answer.json()["errors"]] == [["query", field]]
    missing = writer.get("/lineage/nothing/diff", params={"from": before})
    assert missing.status_code == 404
    # a root born between the instants: everything is added
    born = read(writer, "/lineage/a/diff", **{"from": before, "to": after})
    assert ids(born["added"]) == ["a", "b"] and born["removed"]["nodes"] == []


def test_repeating_a_write_adds_no_history(writer: httpx.Client, driver: neo4j.Driver) -> None:
    body: dict[str, Any] = {
        "source": "a",
        "target": "b",
        "transformation": "t",
        "columns": [{"source": "id", "target": "id"}],
    }
    edge(writer, **body)
    writer.post("/lineage/bulk", json=[body, {"source": "b", "target": "c"}])
    recorded = intervals(driver)
    assert recorded > 0
    for _ in range(2):
        edge(writer, **body)
        writer.post("/lineage/bulk", json=[body, {"source": "b", "target": "c"}])
    assert intervals(driver) == recorded


def test_column_lineage_reads_as_of(writer: httpx.Client) -> None:
    writer.post("/assets", json={"id": "src", "name": "src", "type": "table"})
    writer.post(
        "/lineage",
        json={
            "source": "src",
            "target": "dst",
            "columns": [{"source": "id", "target": "key", "transformation": "cast"}],
        },
    )
    before = moment()
    writer.delete("/lineage/edges", params={"source": "src", "target": "dst"})

    then = read(writer, "/lineage/dst/columns/key/upstream", as_of=before)
    assert [(n["asset"], n["column"]) for n in then["nodes"]] == [("dst", "key"), ("src", "id")]
    assert [e["transformation"] for e in then["edges"]] == ["cast"]
    assert writer.get("/lineage/dst/columns/key/upstream").status_code == 404
    down = read(writer, "/lineage/src/columns/id/downstream", as_of=before)
    assert [(n["asset"], n["column"]) for n in down["nodes"]] == [("src", "id"), ("dst", "key")]
    # `src` declares no columns: once the mapping is gone, so is its column
    gone = writer.get("/lineage/src/columns/id/downstream", params={"as_of": moment()})
    assert gone.status_code == 404 and gone.json()["code"] == "column_not_found"


def test_retention_forgets_what_ended_long_ago_and_keeps_what_stands(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    edge(writer, "a", "gone")
    edge(writer, "a", "kept", transformation="v1")
    edge(writer, "a", "kept", transformation="v2")
    writer.delete("/lineage/edges", params={"source": "a", "target": "gone"})
    for name in ("A", "Asset A"):  # a placeholder has no version: made real, two
        writer.patch(
            "/assets/a",
            json={"name": name},
            headers={"content-type": "application/merge-patch+json"},
        )
    versions = "MATCH (v:AssetVersion {asset_id: 'a'}) RETURN count(v) AS n"
    assert driver.execute_query(versions).records[0]["n"] == 2
    today = read(writer, "/lineage/a")

    # a day's retention, seen two days from now: everything that ended is past it
    later = clock.now() + timedelta(days=2)
    on_a_graph(make_settings(), lambda graph: history.prune(graph, timedelta(days=1), later))

    histories = driver.execute_query(
        "MATCH (:AssetTrail {id: 'a'})-[w:LINEAGE_WAS]->(t) "
        "RETURN t.id AS target, w.transformation AS transformation ORDER BY target"
    ).records
    assert [(r["target"], r["transformation"]) for r in histories] == [("kept", ["v2"])]
    assert driver.execute_query(versions).records[0]["n"] == 1  # the baseline
    assert read(writer, "/lineage/a", as_of=moment()) == today
    assert (
        on_a_graph(make_settings(), lambda graph: history.prune(graph, timedelta(days=1), later))
        == 0
    )


def test_the_backfill_opens_a_history_for_edges_from_before_history(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    driver.execute_query(EDGE_FROM_BEFORE_HISTORY)
    assert on_a_graph(make_settings(), history.backfill) == 1
    assert on_a_graph(make_settings(), history.backfill) == 0

    root = "/lineage/old.src/downstream"
    assert pairs(read(writer, root, as_of="2024-03-01T00:00:00Z")) == [
        ("old.src", "old.dst", "copy")
    ]
    assert pairs(read(writer, root, as_of="2024-01-15T00:00:00Z")) == []
    writer.delete("/lineage/edges", params={"source": "old.src", "target": "old.dst"})
    assert pairs(read(writer, root, as_of="2024-03-01T00:00:00Z")) == [
        ("old.src", "old.dst", "copy")
    ]


def test_as_of_walks_plan_a_pruning_breadth_first_expand(driver: neo4j.Driver) -> None:
    """Guards the linear-cost design through time: the interval test is a relationship
    predicate the planner keeps inside the pruning expand."""
    queries = cypher.load()
    params: dict[str, Any] = {"as_of": "2026-01-01T00:00:00.000Z", "limit": 10}
    walks: dict[str, dict[str, Any]] = {
        "lineage.traverse_as_of": {
            "as_of_ms": instant_ms(params["as_of"]),
            "take": 10,
            "after_down": [1, False, "a"],
            "after_up": None,
            "id": "x",
            "downstream": True,
            "upstream": True,
            "token_hash": None,
            "now": "2026-01-01T00:00:00.000Z",
        },
        "lineage.column_downstream_as_of": {"key": "x\ny"},
        "lineage.column_upstream_as_of": {"key": "x\ny"},
    }
    for name, extra in walks.items():
        statement = queries[name].statement({"depth": 50})
        summary = driver.execute_query("EXPLAIN " + statement, **params, **extra).summary
        expands = [op for op in plans.operators(summary.plan) if op.startswith("VarLengthExpand")]
        assert expands and all(op.startswith("VarLengthExpand(Pruning,BFS") for op in expands), (
            name,
            expands,
        )


def test_an_as_of_walk_of_a_lattice_of_2_to_the_30_paths_answers_at_once(
    writer: httpx.Client,
) -> None:
    levels = 30
    rows = [{"source": "top", "target": "l0a"}, {"source": "top", "target": "l0b"}]
    for level in range(levels):
        for left in "ab":
            for right in "ab":
                rows.append({"source": f"l{level}{left}", "target": f"l{level + 1}{right}"})
    assert writer.post("/lineage/bulk", json=rows).status_code == 200
    at = moment()
    writer.delete("/lineage/edges", params={"source": "top", "target": "l0b"})
    graph = read(writer, "/lineage/top/downstream", as_of=at, depth=50)
    assert len(graph["nodes"]) == 1 + 2 * (levels + 1)
    assert len(graph["edges"]) == len(rows)
