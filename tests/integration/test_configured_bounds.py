"""A deployment enforces and documents the bounds it is configured with, and no depth
reaches Neo4j that a Cypher statement cannot be written with: such a configuration does
not start, and a request deeper than the configured maximum is 422 naming the field
(a lineage read's `depth`, a query's or a policy's `max_depth`), however it compares
with the defaults."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.cypher import MAX_BOUND
from service.settings import Settings
from tests.conftest import Tokens, client_for
from tests.support.cli import run_cli
from tests.support.server import LiveServer

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


def _document(server: LiveServer) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(server.url + "/api/v1/openapi.json").json()
    return document


def _body_depths(document: dict[str, Any]) -> dict[str, object]:
    """The `maximum` each request body's depth field documents."""
    schemas = document["components"]["schemas"]
    policy_params = {
        variant["properties"]["kind"]["const"]: variant["properties"]["params"]["properties"]
        for variant in schemas["PolicyFields"]["oneOf"]
    }
    return {
        "traverse.max_depth": schemas["Traverse"]["properties"]["max_depth"]["maximum"],
        "traverse.min_depth": schemas["Traverse"]["properties"]["min_depth"]["maximum"],
        "path.max_depth": schemas["PathQuery"]["properties"]["max_depth"]["maximum"],
        **{
            f"{kind}.max_depth": policy_params[kind]["max_depth"]["anyOf"][0]["maximum"]
            for kind in ("tag_propagation", "restricted_flow")
        },
    }


def _refused(response: httpx.Response, *loc: str) -> None:
    assert response.status_code == 422, response.text
    assert [e["loc"] for e in response.json()["errors"]] == [["body", *loc]]


def _walk(start: str, depth: int) -> dict[str, Any]:
    return {
        "start": {"ids": [start]},
        "traverse": {"direction": "downstream", "max_depth": depth},
        "return": "nodes",
    }


def _chain(client: httpx.Client, ids: list[str]) -> None:
    edges = [{"source": s, "target": t} for s, t in pairwise(ids)]
    client.post("/lineage/bulk", json=edges).raise_for_status()


def test_depth_7_bounds_queries_and_policies_at_7_in_the_document_and_the_answers(
    serving: Callable[..., LiveServer], tokens: Tokens
) -> None:
    server = serving(GOVERNANCE_MAX_LINEAGE_DEPTH="7")
    assert set(_body_depths(_document(server)).values()) == {7}
    with client_for(server, tokens.write) as client:
        _chain(client, ["a", "b"])
        assert client.post("/query", json=_walk("a", 7)).status_code == 200
        _refused(client.post("/query", json=_walk("a", 8)), "traverse", "max_depth")
        path = {"path": {"from": "a", "to": "b", "max_depth": 8}}
        _refused(client.post("/query", json=path), "path", "max_depth")

        deep = {"name": "p", "kind": "tag_propagation", "params": {"tag": "pii", "max_depth": 8}}
        _refused(client.post("/policies", json=deep), "params", "max_depth")
        flow = {"name": "f", "kind": "restricted_flow", "params": {"to": {}, "max_depth": 8}}
        _refused(client.post("/policies", json=flow), "params", "max_depth")
        created = client.post("/policies", json={**deep, "params": {"tag": "pii"}})
        assert created.status_code == 201, created.text
        policy = created.json()
        url, version = f"/policies/{policy['id']}", {"If-Match": created.headers["ETag"]}
        # Absent, the depth is the deployment's: what a client reads it may send back.
        assert client.put(url, json=policy, headers=version).status_code == 200
        _refused(client.put(url, json=deep, headers=version), "params", "max_depth")
        _refused(client.patch(url, json={"params": {"max_depth": 8}}), "params", "max_depth")
        patched = client.patch(url, json={"params": {"max_depth": 7}})
        assert patched.json()["params"] == {"tag": "pii", "max_depth": 7}, patched.text


def test_depth_60_lets_a_query_and_a_policy_walk_55_hops_and_no_further(
    serving: Callable[..., LiveServer], tokens: Tokens
) -> None:
    """gov-0 -> gov-1 -> hop-2 -> ... -> hop-55 -> sink: the sink is 55 hops from gov-1
    and 56 from gov-0, deeper than the defaults allow."""
    server = serving(GOVERNANCE_MAX_LINEAGE_DEPTH="60")
    assert set(_body_depths(_document(server)).values()) == {60}
    chain = ["gov-0", "gov-1", *(f"hop-{n}" for n in range(2, 56)), "sink"]
    with client_for(server, tokens.write) as client:
        for governed in ("gov-0", "gov-1"):
            asset = {"name": governed, "type": "table"}
            client.put(f"/assets/{governed}", json=asset).raise_for_status()
        _chain(client, chain)

        answer = client.post("/query", json=_walk("gov-1", 55))
        assert answer.status_code == 200, answer.text
        assert {n["id"]: n["distance"] for n in answer.json()["nodes"]}["sink"] == 55
        path = {"path": {"from": "gov-0", "to": "sink", "max_depth": 56}}
        assert client.post("/query", json=path).json()["paths"] == [chain]
        _refused(client.post("/query", json=_walk("gov-1", 61)), "traverse", "max_depth")

        params = {"to": {"id_prefix": "sink"}, "max_depth": 55}
        body = {"name": "f", "kind": "restricted_flow", "selector": {"id_prefix": "gov-"}}
        created = client.post("/policies", json={**body, "params": params})
        assert created.status_code == 201, created.text
        client.post("/policies/evaluate").raise_for_status()
        violations = client.get(f"/policies/{created.json()['id']}/violations").json()
        assert [(v["asset_id"], len(v["path"])) for v in violations["violations"]] == [
            ("gov-1", 56)
        ]


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
    result = run_cli("serve", env=env)
    assert result.returncode == 1
    assert result.stderr == f"governance: {message}\n"
    assert result.stdout == ""
