"""Traversal pages on a scripted transport: the walk's parameters on the wire, and
``lineage_pages`` following ``next_cursor`` page after page. No network."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from scripted import Script, ok

from governance_client import AsyncClient, Client


def _page(ids: list[str], cursor: str | None, left: int) -> dict[str, Any]:
    return {
        "root": "r",
        "direction": "downstream",
        "depth": 5,
        "nodes": [{"id": i} for i in ids],
        "edges": [],
        "truncated": cursor is not None,
        "next_cursor": cursor,
        "remaining": {"downstream": left},
        "hidden": {"downstream": 0},
        "capped": [],
    }


def test_filters_repeat_and_the_cursor_and_fanout_go_on_the_wire(
    make: Callable[..., Client],
) -> None:
    script = Script(ok(_page(["r"], None, 0)), ok(_page(["r"], None, 0)))
    client = make(script)
    client.lineage.get("r", types=["table", "view"], tags="pii", cursor="c1", fanout=3)
    client.lineage.downstream("r", platforms=["pg"], owners=("ann",), limit=2)
    assert [(r.url.path, r.url.params.multi_items()) for r in script.requests] == [
        ("/api/v1/lineage/r", [
            ("cursor", "c1"), ("type", "table"), ("type", "view"), ("tag", "pii"),
            ("fanout", "3"),
        ]),
        ("/api/v1/lineage/r/downstream", [("limit", "2"), ("platform", "pg"), ("owner", "ann")]),
    ]  # fmt: skip


def test_lineage_pages_follows_next_cursor_lazily(make: Callable[..., Client]) -> None:
    script = Script(ok(_page(["r", "a"], "c1", 1)), ok(_page(["b"], None, 0)))
    pages = make(script).lineage.lineage_pages("r", direction="downstream", limit=2, tags="pii")
    assert script.requests == []
    assert [[n["id"] for n in p["nodes"]] for p in pages] == [["r", "a"], ["b"]]
    assert [r.url.params.multi_items() for r in script.requests] == [
        [("direction", "downstream"), ("limit", "2"), ("tag", "pii")],
        [("direction", "downstream"), ("limit", "2"), ("cursor", "c1"), ("tag", "pii")],
    ]


@pytest.mark.anyio
async def test_the_async_twin_pages_alike() -> None:
    script = Script(ok(_page(["r"], "c1", 2)), ok(_page(["a", "b"], None, 0)))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        pages = [p async for p in client.lineage.lineage_pages("r", cursor=None, fanout=1)]
    assert [p["remaining"] for p in pages] == [{"downstream": 2}, {"downstream": 0}]
    assert script.requests[1].url.params["cursor"] == "c1"
