"""Where stand-ins sit on traversal pages: at each distance after the readable nodes, so
an outsider cannot tell how a hidden id sorts against the ids it reads, and among
themselves in an order the walk's keyed shuffle gives them, so not against each other
either; on any page of the live walk, the walk through time and the capped walk. A caller who reads
everything keeps the (distance, id) order. Pages of any size concatenate to the
one-page answer."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import neo4j
import pytest

from service import cypher
from service.domain.cursor_seal import CursorSeal
from service.domain.lineage_pages import After, Walk, page_params, shuffle_for
from tests.support import plans
from tests.support.finance import finance, unleaked
from tests.support.history import moment
from tests.support.keys import TEST_SECRET_KEY
from tests.support.writes import edge, put_asset

__all__ = ["finance"]  # the fixture, used by name

# Readable ids interleave with the hidden `fin.` ones ('-' < '.' < '_' < 'z').
NEAR = ("a", "fin-x", "fin.b", "fin.c", "fin.d", "fin_y", "z")  # distance 1
FAR = ("fin.a2", "g2")  # distance 2, beyond `a`
SEEN_BY_ADMIN = ["root", *NEAR, *FAR]
SEEN_BY_OUTSIDER = [
    "root", "a", "fin-x", "fin_y", "z", ("fin", 1), ("fin", 1), ("fin", 1), "g2", ("fin", 2),
]  # fmt: skip
WALKS = [{}, {"fanout": 10}, {"as_of": "now"}]


@pytest.fixture
def graph(finance: None, admin: httpx.Client) -> str:
    """The neighbourhood; the instant after it was written, for walks through time."""
    put_asset(admin, "root", "Root")
    for asset_id in (*NEAR, *FAR):
        put_asset(admin, asset_id, f"Name of {asset_id}")
    for target in NEAR:
        edge(admin, "root", target)
    for target in FAR:
        edge(admin, "a", target)
    return moment()


def _seen(node: dict[str, Any]) -> str | tuple[str, int]:
    """A node as the test compares it: a stand-in by its team and distance (its number
    counts the stand-ins of one page)."""
    return (node["team"], node["distance"]) if node.get("redacted") else str(node["id"])


def _pages(client: httpx.Client, params: dict[str, Any]) -> list[dict[str, Any]]:
    pages, cursor = [], None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        body = unleaked(client.get("/lineage/root/downstream", params=query))
        pages.append(body)
        cursor = body["next_cursor"]
        if cursor is None:
            return pages


def _walk(extra: dict[str, Any], at: str) -> dict[str, Any]:
    return {"depth": 3, **{k: at if v == "now" else v for k, v in extra.items()}}


@pytest.mark.parametrize("extra", WALKS, ids=["live", "fanout", "as_of"])
def test_an_outsiders_pages_list_readable_nodes_then_stand_ins_at_each_distance(
    graph: str, reader: httpx.Client, extra: dict[str, Any]
) -> None:
    params = _walk(extra, graph)
    whole = _pages(reader, {**params, "limit": 100})
    assert len(whole) == 1 and [_seen(n) for n in whole[0]["nodes"]] == SEEN_BY_OUTSIDER
    assert whole[0]["redacted"] == 4
    for limit in (2, 3):
        pages = _pages(reader, {**params, "limit": limit})
        assert len(pages) == -(-len(SEEN_BY_OUTSIDER) // limit)
        assert [_seen(n) for page in pages for n in page["nodes"]] == SEEN_BY_OUTSIDER
        assert pages[-1]["remaining"]["downstream"] == 0
        for page in pages:  # edges too by what the caller sees, not the hidden ids
            ends = [(e["source"], e["target"]) for e in page["edges"]]
            assert ends == sorted(ends)
        hidden = [i for i in (*NEAR, *FAR) if i.startswith("fin.")]
        assert not any(i in json.dumps(page) for page in pages for i in hidden)


@pytest.mark.parametrize("extra", WALKS, ids=["live", "fanout", "as_of"])
def test_a_caller_who_reads_everything_keeps_distance_then_id_order(
    graph: str, admin: httpx.Client, extra: dict[str, Any]
) -> None:
    params = _walk(extra, graph)
    for limit in (2, 3, 100):
        pages = _pages(admin, {**params, "limit": limit})
        assert [n["id"] for page in pages for n in page["nodes"]] == SEEN_BY_ADMIN


# Six hidden assets at distance 1 (three more than the neighbourhood above), each
# leading to a readable node of its own, which tells the test which stand-in is which.
SHUFFLED = ("fin.b", "fin.c", "fin.d", "fin.e", "fin.f", "fin.g")


@pytest.fixture
def leads(graph: str, admin: httpx.Client) -> str:
    for hidden in SHUFFLED:
        if hidden not in NEAR:
            edge(admin, "root", hidden)
        put_asset(admin, f"next-{hidden[-1]}")
        edge(admin, hidden, f"next-{hidden[-1]}")
    return moment()


@pytest.mark.parametrize("extra", WALKS, ids=["live", "fanout", "as_of"])
def test_an_outsiders_stand_ins_follow_the_walks_shuffle_not_their_ids(
    leads: str, reader: httpx.Client, driver: neo4j.Driver, extra: dict[str, Any]
) -> None:
    """On one page, so that each stand-in's number names it in the edges (the pages of
    any size concatenate to it: the test above). The order is their nodes' internal ids
    (the trails' through time) under the shuffle the service draws for this walk from
    its secret: with six of them, id order comes out once in 720 walks."""
    params = _walk(extra, leads)
    (page,) = _pages(reader, {**params, "limit": 100})
    stand_ins = [n["id"] for n in page["nodes"] if n.get("redacted") and n["distance"] == 1]
    led_to = {e["source"]: e["target"] for e in page["edges"]}

    label = "AssetTrail" if "as_of" in extra else "Asset"
    records, _, _ = driver.execute_query(
        f"MATCH (n:{label}) WHERE n.id IN $ids RETURN n.id AS id, id(n) AS node", ids=SHUFFLED
    )
    walk = Walk("root", "downstream", 3, params.get("as_of"), fanout=params.get("fanout"))
    shuffle = shuffle_for(walk, CursorSeal([TEST_SECRET_KEY]))
    expected = sorted(records, key=lambda r: shuffle.key(r["node"]))
    assert [led_to[s] for s in stand_ins] == [f"next-{r['id'][-1]}" for r in expected]


def test_every_edge_comes_once_across_an_outsiders_pages(graph: str, reader: httpx.Client) -> None:
    """Edges name stand-ins by the number of the page that shows them, or, for a stand-in
    of an earlier page, by a number of their own: each edge still comes once."""
    pages = _pages(reader, {"depth": 3, "limit": 3})
    edges = [(e["source"], e["target"]) for page in pages for e in page["edges"]]
    assert len(edges) == len(NEAR) + len(FAR)
    assert sum(1 for s, _ in edges if s == "root") == len(NEAR)
    assert sum(1 for s, _ in edges if s == "a") == len(FAR)


def test_a_cursor_from_the_earlier_order_is_refused(graph: str, reader: httpx.Client) -> None:
    """A position of [distance, id] cannot say where it stopped among the stand-ins."""
    first = reader.get("/lineage/root/downstream", params={"depth": 3, "limit": 2}).json()
    raw = first["next_cursor"]
    state = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    distance, _, asset_id = state["after"]["downstream"]
    state["after"]["downstream"] = [distance, asset_id]
    old = base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")
    answer = reader.get("/lineage/root/downstream", params={"depth": 3, "limit": 2, "cursor": old})
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_cursor"


@pytest.mark.parametrize("name", ["lineage.traverse", "lineage.traverse_as_of"])
def test_ordering_stand_ins_last_keeps_the_linear_walk(driver: neo4j.Driver, name: str) -> None:
    """With private domains to hide and a position holding `hidden`, the plan still
    walks with the pruning breadth-first expand, scans no whole label and builds no
    cartesian product."""
    statement = cypher.load()[name].statement({"depth": 50})
    params = {
        "id": "x",
        "downstream": True,
        "upstream": True,
        "now": "2026-01-01T00:00:00.000Z",
        "as_of": "2026-01-01T00:00:00.000Z",
        **page_params(10, After((2, True, "b"), (1, False, "a"), started=True), readable=("mine",)),
    }
    plan = driver.execute_query("EXPLAIN " + statement, params).summary.plan
    operators = plans.operators(plan)
    walks = [op for op in operators if op.startswith("VarLengthExpand")]
    assert len(walks) == 2 and all(op.startswith("VarLengthExpand(Pruning,BFS") for op in walks)
    assert not [op for op in operators if op.startswith(("AllNodesScan", "CartesianProduct"))], (
        operators
    )
