"""A deployment enforces and documents the bounds it is configured with, and no depth
reaches Neo4j that a Cypher statement cannot be written with: such a configuration does
not start, and a request deeper than the configured maximum is 422 naming `depth`."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from service.app import create_app
from service.cypher import MAX_BOUND
from service.settings import Settings
from tests.conftest import Tokens, client_for
from tests.support.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
TRAVERSALS = ("/lineage/a", "/lineage/a/upstream", "/lineage/a/downstream")


@pytest.fixture
def serving(make_settings: Callable[..., Settings]) -> Iterator[Callable[..., LiveServer]]:
    """Start a service whose limits come from the given variables, as `from_env` reads them."""
    started: list[LiveServer] = []

    def start(**variables: str) -> LiveServer:
        limits = Settings.from_env(variables).limits
        started.append(LiveServer(create_app(make_settings(limits=limits))).start())
        return started[-1]

    yield start
    for server in started:
        server.stop()


def _depth_schema(server: LiveServer, path: str) -> dict[str, object]:
    document = httpx.get(server.url + "/api/v1/openapi.json").json()
    [depth] = [p for p in document["paths"][path]["get"]["parameters"] if p["name"] == "depth"]
    schema: dict[str, object] = depth["schema"]
    return schema


def _refused_depth(response: httpx.Response) -> None:
    assert response.status_code == 422, response.text
    assert [e["loc"] for e in response.json()["errors"]] == [["query", "depth"]]


def test_a_service_configured_for_depth_7_documents_7_and_refuses_8(
    serving: Callable[..., LiveServer], tokens: Tokens
) -> None:
    server = serving(GOVERNANCE_MAX_LINEAGE_DEPTH="7")
    schema = _depth_schema(server, "/api/v1/lineage/{asset_id}")
    assert (schema["maximum"], schema["default"]) == (7, 5)
    with client_for(server, tokens.write) as client:
        assert client.post("/lineage", json={"source": "a", "target": "b"}).status_code == 201
        for path in TRAVERSALS:
            assert client.get(path, params={"depth": 7}).json()["depth"] == 7
            _refused_depth(client.get(path, params={"depth": 8}))


def test_at_the_cypher_bound_the_deepest_request_runs_and_a_deeper_one_is_422(
    serving: Callable[..., LiveServer], tokens: Tokens
) -> None:
    server = serving(GOVERNANCE_MAX_LINEAGE_DEPTH=str(MAX_BOUND))
    assert _depth_schema(server, "/api/v1/lineage/{asset_id}/upstream")["maximum"] == MAX_BOUND
    with client_for(server, tokens.write) as client:
        client.post("/lineage", json={"source": "a", "target": "b"}).raise_for_status()
        deepest = client.get("/lineage/a", params={"depth": MAX_BOUND})
        assert deepest.status_code == 200 and {n["id"] for n in deepest.json()["nodes"]} == {
            "a",
            "b",
        }
        _refused_depth(client.get("/lineage/a", params={"depth": MAX_BOUND + 1}))


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        (
            {"GOVERNANCE_MAX_LINEAGE_DEPTH": str(MAX_BOUND + 1)},
            f"GOVERNANCE_MAX_LINEAGE_DEPTH must be at most {MAX_BOUND}, got {MAX_BOUND + 1}",
        ),
        (
            {"GOVERNANCE_MAX_LINEAGE_DEPTH": "3"},
            "GOVERNANCE_DEFAULT_LINEAGE_DEPTH (5) must not exceed GOVERNANCE_MAX_LINEAGE_DEPTH (3)",
        ),
    ],
)
def test_serve_refuses_bounds_that_disagree_before_it_listens(
    variables: dict[str, str], message: str
) -> None:
    # The refusal comes before Neo4j is asked for: this address answers nothing.
    env = {"PATH": "/usr/bin:/bin", "NEO4J_URI": "bolt://127.0.0.1:1", **variables}
    result = subprocess.run(
        [sys.executable, "-m", "service", "serve"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == f"governance: {message}\n"
    assert result.stdout == ""
