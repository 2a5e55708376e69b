"""A writer's edge set is found through its index, `(:EdgeOrigin)-[:ASSERTS_INTO]->` the
assets it points into: the index follows an identity merge, the start-up backfill
builds it for edges written before it was kept, and `api` writes keep none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import neo4j

from service.settings import Settings
from service.store import edge_sets
from tests.support.graphs import on_a_graph

SYNC = {"origin": "sync:crm", "replace": "true"}
RAW = {"namespace": "snowflake://acme-prod", "name": "raw.public.orders"}


def _indexed(driver: neo4j.Driver) -> set[tuple[str, str]]:
    rows = driver.execute_query(
        "MATCH (o:EdgeOrigin)-[:ASSERTS_INTO]->(t:Asset) RETURN o.origin AS origin, t.id AS id"
    ).records
    return {(row["origin"], row["id"]) for row in rows}


def _bulk(client: httpx.Client, edges: list[dict[str, Any]], **params: str) -> dict[str, Any]:
    answer = client.post("/lineage/bulk", json=edges, params=params)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _edges(client: httpx.Client) -> dict[tuple[str, str], dict[str, Any]]:
    items = client.get("/lineage/edges").json()["items"]
    return {(e["source"], e["target"]): e for e in items}


def test_the_index_follows_an_asset_merged_into_another(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    mapped = {"source": "src", "target": RAW, "columns": [{"source": "id", "target": "id"}]}
    _bulk(writer, [mapped], **SYNC)
    placeholder = "snowflake://acme-prod/RAW.PUBLIC.ORDERS"
    assert _indexed(driver) == {("sync:crm", placeholder)}

    claimed = writer.post(
        "/assets",
        json={"id": "warehouse.orders", "name": "orders", "type": "table", "dataset": RAW},
    )
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["aliases"] == [placeholder]
    assert _indexed(driver) == {("sync:crm", "warehouse.orders")}

    answer = _bulk(writer, [], **SYNC)

    assert answer["retired"] == {
        "edges": 1,
        "edges_removed": 1,
        "column_mappings": 1,
        "column_mappings_removed": 1,
    }
    assert _edges(writer) == {}
    assert _indexed(driver) == set()  # nothing asserted into it any more


def test_the_start_up_backfill_indexes_sets_written_before_the_index(
    writer: httpx.Client, driver: neo4j.Driver, make_settings: Callable[..., Settings]
) -> None:
    driver.execute_query(
        "UNWIND ['old.a', 'old.b', 'old.c', 'old.d'] AS id "
        "CREATE (:Asset {id: id, name: id, type: 'table', tags: [], owners: [],"
        " placeholder: false, version: 1,"
        " created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z'})"
    )
    driver.execute_query(
        "UNWIND $edges AS e "
        "MATCH (s:Asset {id: e[0]}), (t:Asset {id: e[1]}) "
        "CREATE (s)-[:LINEAGE {origins: e[2], created_at: '2024-02-01T00:00:00.000Z',"
        " updated_at: '2024-02-01T00:00:00.000Z'}]->(t)",
        edges=[
            ["old.a", "old.b", ["sync:crm"]],
            ["old.a", "old.c", ["sync:crm", "api"]],
            ["old.c", "old.d", ["api", "sql:log"]],
        ],
    )
    driver.execute_query(
        "MATCH (a:Asset {id: 'old.a'}), (b:Asset {id: 'old.b'}) "
        "CREATE (a)-[:HAS_COLUMN]->(:Column {key: 'old.a\nid', asset: 'old.a', name: 'id'})"
        "-[:COLUMN_LINEAGE {origins: ['sync:crm'], created_at: '2024-02-01T00:00:00.000Z',"
        " updated_at: '2024-02-01T00:00:00.000Z'}]->"
        "(:Column {key: 'old.b\nid', asset: 'old.b', name: 'id'})<-[:HAS_COLUMN]-(b)"
    )

    assert on_a_graph(make_settings(), edge_sets.backfill) == 2
    assert on_a_graph(make_settings(), edge_sets.backfill) == 0  # each start-up runs it again
    assert _indexed(driver) == {("sync:crm", "old.b"), ("sync:crm", "old.c")}

    answer = _bulk(writer, [{"source": "old.a", "target": "old.c"}], **SYNC)

    assert answer["retired"] == {
        "edges": 1,
        "edges_removed": 1,
        "column_mappings": 1,
        "column_mappings_removed": 1,
    }
    after = _edges(writer)
    assert sorted(after) == [("old.a", "old.c"), ("old.c", "old.d")]
    assert after["old.a", "old.c"]["origins"] == ["sync:crm", "api"]
    assert _indexed(driver) == {("sync:crm", "old.c")}


def test_writes_as_api_keep_no_index(writer: httpx.Client, driver: neo4j.Driver) -> None:
    assert writer.post("/lineage", json={"source": "a", "target": "b"}).status_code == 201
    _bulk(writer, [{"source": "b", "target": "c", "columns": [{"source": "x", "target": "x"}]}])

    assert driver.execute_query("MATCH (o:EdgeOrigin) RETURN count(o)").records[0][0] == 0


def test_the_index_keeps_only_the_assets_an_origin_still_asserts_into(
    writer: httpx.Client, driver: neo4j.Driver
) -> None:
    _bulk(writer, [{"source": "x", "target": "y"}, {"source": "y", "target": "z"}], **SYNC)
    _bulk(writer, [{"source": "x", "target": "z"}], origin="sync:erp")
    assert _indexed(driver) == {("sync:crm", "y"), ("sync:crm", "z"), ("sync:erp", "z")}

    answer = _bulk(writer, [{"source": "x", "target": "y"}], **SYNC)

    assert answer["retired"]["edges_removed"] == 1
    assert sorted(_edges(writer)) == [("x", "y"), ("x", "z")]
    assert _indexed(driver) == {("sync:crm", "y"), ("sync:erp", "z")}
