"""`Server-Timing`: every answer says how long it waited on Neo4j and how long the
service took, each request's database time its own even when requests overlap, and
the header can be switched off."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Mapping

import httpx
from starlette.testclient import TestClient

from service.app import create_app
from service.domain.access import tokens as token_format
from service.settings import Observability, Settings
from tests.conftest import Tokens
from tests.support.server import LiveServer


def timings(headers: Mapping[str, str]) -> dict[str, float]:
    """An answer's `db;dur=1.234, total;dur=5.678` as {"db": 1.234, "total": 5.678}."""
    found = {}
    for metric in headers["server-timing"].split(","):
        name, duration = metric.strip().split(";")
        key, value = duration.split("=")
        assert key == "dur"
        found[name] = float(value)
    return found


def test_a_traversal_reports_its_database_time_within_its_total(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    assert writer.post("/lineage", json={"source": "raw.a", "target": "mart.b"}).status_code == 201
    response = reader.get("/lineage/mart.b/upstream", params={"depth": 3})
    assert response.status_code == 200
    assert [n["id"] for n in response.json()["nodes"]] == ["mart.b", "raw.a"]
    spent = timings(response.headers)
    assert set(spent) == {"db", "total"}
    assert 0 < spent["db"] <= spent["total"]


def test_requests_in_flight_together_are_each_charged_their_own_database_time(
    live: LiveServer, tokens: Tokens, writer: httpx.Client
) -> None:
    """A request that never reaches Neo4j reports 0 ms of database time while
    traversals run beside it in the same process."""
    assert writer.post("/lineage", json={"source": "raw.a", "target": "mart.b"}).status_code == 201

    async def overlapping() -> list[httpx.Response]:
        headers = {"Authorization": f"Bearer {tokens.read}"}
        async with httpx.AsyncClient(base_url=live.url, headers=headers, timeout=30) as client:
            walks = [client.get("/api/v1/lineage/mart.b/upstream") for _ in range(20)]
            misses = [client.get("/no-such-route") for _ in range(20)]
            return await asyncio.gather(
                *(x for pair in zip(walks, misses, strict=True) for x in pair)
            )

    answers = asyncio.run(overlapping())
    walks = [a for a in answers if a.url.path.startswith("/api/v1/lineage")]
    misses = [a for a in answers if a.url.path == "/no-such-route"]
    assert [a.status_code for a in walks] == [200] * 20
    assert [a.status_code for a in misses] == [404] * 20
    assert all(timings(a.headers)["db"] > 0 for a in walks)
    assert [timings(a.headers)["db"] for a in misses] == [0.0] * 20


def test_the_header_can_be_switched_off(make_settings: Callable[..., Settings]) -> None:
    settings = make_settings(observability=Observability(server_timing=False))
    with TestClient(create_app(settings)) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert "server-timing" not in response.headers


def test_refusals_and_an_unreachable_neo4j_are_timed_too(
    make_settings: Callable[..., Settings],
) -> None:
    """A missing token is refused before any Neo4j call (0 ms of it); a 503 from a Neo4j
    that refuses connections reports the time spent trying."""
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        uri = f"bolt://127.0.0.1:{closed.getsockname()[1]}"
        with TestClient(create_app(make_settings(neo4j_uri=uri))) as client:
            anonymous = client.get("/api/v1/assets")
            headers = {"Authorization": f"Bearer {token_format.generate()}"}
            down = client.get("/api/v1/assets", headers=headers)
    assert anonymous.status_code == 401
    assert timings(anonymous.headers)["db"] == 0.0
    assert down.status_code == 503 and "retry-after" in down.headers
    spent = timings(down.headers)
    assert 0 < spent["db"] <= spent["total"]
