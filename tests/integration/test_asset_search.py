"""/assets?q=: a ranked search served by the full-text index, whose results are
exactly the case-insensitive substring matches of id, name or description."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from service.graph import Graph
from service.settings import Settings
from service.store import assets as store
from service.store.assets import AssetFilter
from tests.support.graphs import on_a_graph

ASSETS: list[dict[str, Any]] = [
    {"id": "wh.sales.orders", "name": "Orders", "type": "table", "description": "One row each"},
    {"id": "wh.sales.order_items", "name": "order items", "type": "table"},
    {"id": "wh.finance.revenue", "name": "Revenue", "type": "view", "description": "From ORDERS"},
    {"id": "lake/raw/orders.json", "name": "raw orders", "type": "file"},
    {"id": "report-q1", "name": "Q1 (draft) [v2]", "type": "dashboard", "description": "a+b && c"},
    {"id": "lake/café.parquet", "name": "café", "type": "file", "description": "注文 daily"},
    {"id": "ops.c++_jobs", "name": 'jobs: "nightly"', "type": "job", "description": "~x^2 \\ y"},
]
SPECIAL = ["+", "-", "&&", "||", "!", "(", ")", "{", "}", "[", "]", "^", '"', "~", "*", "?"]
SPECIAL += [":", "\\", "/", "AND", "OR", "NOT", "a+b", "c++", "(draft)", "[v2]", '"nightly"']
SPECIAL += ["x^2", "orders*", "ord?rs", "*:*", "name:orders", "\\ y", "&& c", "q1 (d"]


def _seed(writer: httpx.Client) -> None:
    for asset in ASSETS:
        response = writer.post("/assets", json=asset)
        assert response.status_code == 201, response.text


def _expected(q: str, kind: str | None = None) -> set[str]:
    needle = q.lower()
    return {
        a["id"]
        for a in ASSETS
        if (kind is None or a["type"] == kind)
        and any(needle in (a.get(f) or "").lower() for f in ("id", "name", "description"))
    }


def _search(client: httpx.Client, **params: Any) -> list[str]:
    response = client.get("/assets", params=params)
    assert response.status_code == 200, response.text
    return [a["id"] for a in response.json()["items"]]


def test_a_substring_inside_a_word_is_found(writer: httpx.Client) -> None:
    _seed(writer)
    assert (
        set(_search(writer, q="rders"))
        == _expected("rders")
        == {
            "wh.sales.orders",
            "wh.finance.revenue",
            "lake/raw/orders.json",
        }
    )
    assert _search(writer, q="EVEN") == ["wh.finance.revenue"]


def test_an_exact_name_ranks_above_a_name_match_above_a_description_match(
    writer: httpx.Client,
) -> None:
    _seed(writer)
    found = _search(writer, q="orders")
    assert found[0] == "wh.sales.orders"  # its name is "Orders"
    assert found.index("lake/raw/orders.json") < found.index("wh.finance.revenue")
    assert found[-1] == "wh.finance.revenue"  # only its description says orders


@pytest.mark.parametrize("q", SPECIAL)
def test_lucene_special_characters_are_plain_text(writer: httpx.Client, q: str) -> None:
    _seed(writer)
    assert set(_search(writer, q=q, limit=100)) == _expected(q)


@pytest.mark.parametrize(
    "q", ["s.o", "name 3", "RAW ORDERS", "w/ord", "café", "注文", "注", "é.p", "ne ro", "orders.js"]
)
def test_a_query_across_words_or_scripts_finds_exactly_the_substring_matches(
    writer: httpx.Client, q: str
) -> None:
    _seed(writer)
    assert set(_search(writer, q=q, limit=100)) == _expected(q)


def test_search_combines_with_the_other_filters(writer: httpx.Client) -> None:
    _seed(writer)
    assert set(_search(writer, q="orders", type="table")) == {"wh.sales.orders"}
    assert set(_search(writer, q="ord", type="file")) == _expected("ord", "file")
    assert _search(writer, q="orders", type="dashboard") == []


def test_ranked_pages_follow_the_cursor_without_gaps_or_repeats(writer: httpx.Client) -> None:
    _seed(writer)
    whole = _search(writer, q="r", limit=100)
    assert set(whole) == _expected("r")
    paged: list[str] = []
    params: dict[str, Any] = {"q": "r", "limit": 2}
    while True:
        body = writer.get("/assets", params=params).json()
        paged += [a["id"] for a in body["items"]]
        if not body["next_cursor"]:
            break
        params["cursor"] = body["next_cursor"]
    assert paged == whole


def test_an_id_cursor_is_not_a_search_cursor(writer: httpx.Client) -> None:
    _seed(writer)
    cursor = writer.get("/assets", params={"limit": 1}).json()["next_cursor"]
    answer = writer.get("/assets", params={"q": "orders", "cursor": cursor})
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_cursor"


def _id_ordered(settings: Settings, q: str, after: str, limit: int) -> list[str]:
    """The store's id-ordered page, which the dashboard's search uses."""

    async def read(graph: Graph) -> list[str]:
        return [a.id for a in await store.page(graph, AssetFilter(q=q), after, limit)]

    return on_a_graph(settings, read)


@pytest.mark.parametrize("q", ["rders", "ORDERS", "s.o", "/", "注文", "(draft)"])
def test_the_id_ordered_page_finds_the_same_set_in_id_order(
    writer: httpx.Client, make_settings: Callable[..., Settings], q: str
) -> None:
    _seed(writer)
    settings = make_settings()
    assert _id_ordered(settings, q, "", 100) == sorted(_expected(q))
    first = _id_ordered(settings, q, "", 1)
    if first:
        assert _id_ordered(settings, q, first[0], 100) == sorted(_expected(q))[1:]
