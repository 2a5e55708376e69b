"""Lineage writes: single and bulk edges, placeholders, strictness, idempotence."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import httpx
import neo4j


def _count(driver: neo4j.Driver, query: str) -> int:
    return int(driver.execute_query(query).records[0][0])


def test_a_new_edge_is_201_an_existing_one_200(writer: httpx.Client) -> None:
    first = writer.post(
        "/lineage",
        json={
            "source": "raw.orders",
            "target": "stg.orders",
            "transformation": "select * from raw.orders",
        },
    )
    assert first.status_code == 201, first.text
    edge = first.json()
    assert edge["source"] == "raw.orders" and edge["target"] == "stg.orders"
    assert edge["origins"] == ["api"] and edge["transformation"].startswith("select")
    again = writer.post("/lineage", json={"source": "raw.orders", "target": "stg.orders"})
    assert again.status_code == 200
    assert again.json()["transformation"] == edge["transformation"]
    assert again.json()["updated_at"] == edge["updated_at"]
    changed = writer.post(
        "/lineage",
        json={
            "source": "raw.orders",
            "target": "stg.orders",
            "transformation": "select id from raw.orders",
        },
    )
    assert (
        changed.status_code == 200
        and changed.json()["transformation"] == "select id from raw.orders"
    )


def test_unknown_endpoints_become_placeholders_that_a_create_claims(writer: httpx.Client) -> None:
    writer.post("/lineage", json={"source": "a", "target": "b"})
    placeholder = writer.get("/assets/a").json()
    assert placeholder["placeholder"] is True and placeholder["type"] == "unknown"
    assert placeholder["name"] == "a"
    assert [
        x["id"] for x in writer.get("/assets", params={"placeholder": "true"}).json()["items"]
    ] == ["a", "b"]
    claimed = writer.post("/assets", json={"id": "a", "name": "A", "type": "table"})
    assert claimed.status_code == 201 and claimed.json()["placeholder"] is False
    downstream = writer.get("/lineage/a/downstream").json()
    assert [n["id"] for n in downstream["nodes"]] == ["a", "b"]


def test_strict_refuses_unknown_assets_and_writes_nothing(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    writer.post("/assets", json={"id": "known", "name": "k", "type": "table"})
    response = writer.post("/lineage?strict=true", json={"source": "known", "target": "ghost"})
    assert response.status_code == 422
    assert response.json()["code"] == "unknown_assets"
    assert response.json()["unknown_assets"] == ["ghost"]
    bulk = writer.post(
        "/lineage/bulk?strict=true",
        json=[{"source": "known", "target": "ghost"}, {"source": "phantom", "target": "known"}],
    )
    assert bulk.status_code == 422 and bulk.json()["unknown_assets"] == ["ghost", "phantom"]
    assert _count(driver, "MATCH (a:Asset) RETURN count(a)") == 1
    assert _count(driver, "MATCH ()-[r:LINEAGE]->() RETURN count(r)") == 0


def test_self_loops_are_refused(writer: httpx.Client) -> None:
    single = writer.post("/lineage", json={"source": "x", "target": "x"})
    assert single.status_code == 422 and single.json()["code"] == "self_loop"
    assert single.json()["errors"][0]["loc"] == ["body", "target"]
    bulk = writer.post(
        "/lineage/bulk", json=[{"source": "a", "target": "b"}, {"source": "c", "target": "c"}]
    )
    assert bulk.status_code == 422 and bulk.json()["code"] == "self_loop"
    assert bulk.json()["errors"][0]["loc"] == ["body", 1, "target"]
    assert writer.get("/assets").json()["items"] == []


def test_invalid_single_edges_name_the_field(writer: httpx.Client) -> None:
    for body, loc in (
        ({"target": "b"}, ["body", "source"]),
        ({"source": "a", "target": 3}, ["body", "target"]),
        ({"source": "a b", "target": "c"}, ["body", "source"]),
        ({"source": "a", "target": "b", "extra": 1}, ["body", "extra"]),
    ):
        response = writer.post("/lineage", json=body)
        assert response.status_code == 422, body
        assert response.json()["errors"][0]["loc"] == loc


def test_bulk_counts_and_is_idempotent(writer: httpx.Client, driver: neo4j.Driver) -> None:
    writer.post("/assets", json={"id": "a", "name": "a", "type": "table"})
    items = [
        {"source": "a", "target": "b"},
        {"source": "b", "target": "c", "transformation": "t1"},
        {"source": "a", "target": "b"},
        {"source": "b", "target": "c", "transformation": "t2"},
    ]
    first = writer.post("/lineage/bulk", json=items)
    assert first.status_code == 200, first.text
    assert first.json() == {"received": 4, "created": 2, "existing": 0, "assets_created": 2}
    edge = writer.get("/lineage/edges", params={"source": "b"}).json()["items"][0]
    assert edge["transformation"] == "t2"
    again = writer.post("/lineage/bulk", json=items)
    assert again.json() == {"received": 4, "created": 0, "existing": 2, "assets_created": 0}
    assert writer.get("/lineage/edges", params={"source": "b"}).json()["items"][0] == edge
    assert _count(driver, "MATCH ()-[r:LINEAGE]->() RETURN count(r)") == 2


def test_bulk_validates_everything_first_and_lists_each_bad_item(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    items: list[Any] = [
        {"source": "ok1", "target": "ok2"},
        {"source": "a"},
        "text",
        {"source": "x" * 600, "target": "y"},
    ]
    response = writer.post("/lineage/bulk", json=items)
    assert response.status_code == 422
    locs = [e["loc"] for e in response.json()["errors"]]
    assert ["body", 1, "target"] in locs and ["body", 2] in locs and ["body", 3, "source"] in locs
    assert not any(loc[1] == 0 for loc in locs)
    assert _count(driver, "MATCH (n) WHERE n:Asset RETURN count(n)") == 0


def test_bulk_shape_and_size_limits(writer: httpx.Client) -> None:
    assert writer.post("/lineage/bulk", json={"source": "a", "target": "b"}).status_code == 422
    empty = writer.post("/lineage/bulk", json=[])
    assert empty.status_code == 422 and empty.json()["errors"][0]["loc"] == ["body"]
    too_many = writer.post(
        "/lineage/bulk", json=[{"source": f"s{i}", "target": "t"} for i in range(10_001)]
    )
    assert too_many.status_code == 422 and too_many.json()["code"] == "too_many_items"


def test_a_full_bulk_of_10000_edges_is_accepted(writer: httpx.Client, driver: neo4j.Driver) -> None:
    items = [{"source": f"src.{i % 1000}", "target": f"dst.{i}"} for i in range(10_000)]
    result = writer.post("/lineage/bulk", json=items).json()
    assert result == {
        "received": 10_000,
        "created": 10_000,
        "existing": 0,
        "assets_created": 11_000,
    }
    assert _count(driver, "MATCH ()-[r:LINEAGE]->() RETURN count(r)") == 10_000


def test_concurrent_identical_bulks_leave_one_node_and_one_edge_each(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    items = [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(50)]
    items += [{"source": "n0", "target": f"n{i}"} for i in range(2, 50)]

    def post(_: int) -> dict[str, int]:
        response = writer.post("/lineage/bulk", json=items)
        assert response.status_code == 200, response.text
        counts: dict[str, int] = response.json()
        return counts

    with concurrent.futures.ThreadPoolExecutor(32) as pool:
        results = list(pool.map(post, range(32)))
    assert sum(r["created"] for r in results) == len(items)
    assert sum(r["assets_created"] for r in results) == 51
    assert _count(driver, "MATCH (a:Asset) RETURN count(a)") == 51
    assert (
        _count(
            driver, "MATCH (a:Asset) WITH a.id AS id, count(*) AS c WHERE c > 1 RETURN count(id)"
        )
        == 0
    )
    assert (
        _count(
            driver,
            "MATCH (s)-[r:LINEAGE]->(t) WITH s, t, count(r) AS c WHERE c > 1 RETURN count(*)",
        )
        == 0
    )
    assert _count(driver, "MATCH ()-[r:LINEAGE]->() RETURN count(r)") == len(items)


def test_list_edges_filters_and_pages(writer: httpx.Client) -> None:
    writer.post(
        "/lineage/bulk",
        json=[
            {"source": "a", "target": "b"},
            {"source": "a", "target": "c"},
            {"source": "b", "target": "c"},
        ],
    )
    assert [
        (e["source"], e["target"])
        for e in writer.get("/lineage/edges", params={"target": "c"}).json()["items"]
    ] == [("a", "c"), ("b", "c")]
    assert len(writer.get("/lineage/edges", params={"origin": "api"}).json()["items"]) == 3
    assert writer.get("/lineage/edges", params={"origin": "dbt:x"}).json()["items"] == []
    page = writer.get("/lineage/edges", params={"limit": 2}).json()
    rest = writer.get("/lineage/edges", params={"limit": 2, "cursor": page["next_cursor"]}).json()
    pairs = [(e["source"], e["target"]) for e in page["items"] + rest["items"]]
    assert pairs == [("a", "b"), ("a", "c"), ("b", "c")] and rest["next_cursor"] is None
    bad = writer.get("/lineage/edges", params={"cursor": "eyJhZnRlciI6ICJ4In0"})
    assert bad.status_code == 400


def test_delete_edge(writer: httpx.Client) -> None:
    writer.post("/lineage", json={"source": "a", "target": "b"})
    assert writer.delete("/lineage/edges", params={"source": "a", "target": "b"}).status_code == 204
    assert writer.delete("/lineage/edges", params={"source": "a", "target": "b"}).status_code == 404
    missing = writer.delete("/lineage/edges", params={"source": "a"})
    assert missing.status_code == 422 and missing.json()["errors"][0]["loc"] == ["query", "target"]
    assert writer.get("/assets/a").status_code == 200


def test_deleting_an_asset_removes_its_edges(writer: httpx.Client) -> None:
    writer.post(
        "/lineage/bulk", json=[{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]
    )
    assert writer.delete("/assets/b").status_code == 204
    assert writer.get("/lineage/edges").json()["items"] == []
