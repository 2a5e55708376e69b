"""Policies: each policy kind on a graph where it holds and one where it is
broken, violations announced exactly once per change, and every 422."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import neo4j
import pytest

from service import cypher
from service.app import create_app
from service.settings import Settings
from tests.conftest import EVALUATING, Tokens, client_for
from tests.support import plans
from tests.support.progress import POLICY_EVALUATOR, caught_up
from tests.support.server import LiveServer
from tests.support.waiting import eventually
from tests.support.writes import put_asset


def _edges(client: httpx.Client, pairs: list[tuple[str, str]]) -> None:
    response = client.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in pairs])
    assert response.status_code == 200, response.text


def _policy(client: httpx.Client, **body: Any) -> dict[str, Any]:
    response = client.post("/policies", json={"name": "p", **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _evaluate(client: httpx.Client) -> dict[str, Any]:
    response = client.post("/policies/evaluate")
    assert response.status_code == 200, response.text
    return dict(response.json())


def _violations(client: httpx.Client, policy_id: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/policies/{policy_id}/violations", params={"limit": 500})
    assert response.status_code == 200, response.text
    return {v["asset_id"]: v for v in response.json()["violations"]}


def _alerts(client: httpx.Client) -> list[tuple[str, str]]:
    response = client.get("/events", params={"types": "policy.violation.*", "limit": 500})
    assert response.status_code == 200, response.text
    return [(e["type"].rsplit(".", 1)[1], e["data"]["asset_id"]) for e in response.json()["items"]]


def test_require_owner_holds_breaks_and_resolves_once(writer: httpx.Client) -> None:
    put_asset(writer, "owned", owners=["a@example.com"])
    put_asset(writer, "orphan")
    put_asset(writer, "dash", type="dashboard")  # not governed: the selector asks for tables
    _edges(writer, [("owned", "ghost")])  # `ghost` is a placeholder: never governed
    policy = _policy(writer, kind="require_owner", selector={"type": "table"}, severity="high")
    summary = _evaluate(writer)
    assert summary["policies"] == [
        {"policy_id": policy["id"], "violations": 1, "opened": 1, "resolved": 0}
    ]
    found = _violations(writer, policy["id"])
    assert list(found) == ["orphan"] and found["orphan"]["reason"] == "has no owner"
    _evaluate(writer)  # nothing changed: nothing announced again
    put_asset(writer, "orphan", owners=["b@example.com"])
    _evaluate(writer)
    assert _violations(writer, policy["id"]) == {}
    assert _alerts(writer) == [("opened", "orphan"), ("resolved", "orphan")]
    events = writer.get("/events", params={"types": "policy.violation.*"}).json()["items"]
    assert all(e["alert"] is True and e["severity"] == "high" for e in events)
    assert events[0]["data"] == {
        "policy_id": policy["id"],
        "asset_id": "orphan",
        "reason": "has no owner",
    }


def test_require_description_treats_blank_as_missing(writer: httpx.Client) -> None:
    put_asset(writer, "described", description="One row per order")
    put_asset(writer, "blank", description="   ")
    put_asset(writer, "bare")
    put_asset(writer, "other.bare", platform="duckdb")
    policy = _policy(writer, kind="require_description", selector={"platform": "snow"})
    _evaluate(writer)
    assert _violations(writer, policy["id"]) == {}  # nothing on platform snow
    writer.patch(f"/policies/{policy['id']}", json={"selector": None})
    _evaluate(writer)
    assert sorted(_violations(writer, policy["id"])) == ["bare", "blank", "other.bare"]
    writer.patch(f"/policies/{policy['id']}", json={"selector": {"id_prefix": "other."}})
    _evaluate(writer)
    assert sorted(_violations(writer, policy["id"])) == ["other.bare"]


def test_require_quality_rule_counts_enabled_rules_of_the_types(writer: httpx.Client) -> None:
    for asset_id in ("checked", "unchecked", "disabled_only"):
        put_asset(writer, asset_id)
    rule = {"name": "r", "type": "not_null"}
    assert writer.post("/quality/rules", json={**rule, "asset_id": "checked"}).status_code == 201
    disabled = {**rule, "asset_id": "disabled_only", "enabled": False}
    assert writer.post("/quality/rules", json=disabled).status_code == 201
    policy = _policy(writer, kind="require_quality_rule")
    _evaluate(writer)
    assert sorted(_violations(writer, policy["id"])) == ["disabled_only", "unchecked"]
    writer.patch(f"/policies/{policy['id']}", json={"params": {"types": ["unique"]}})
    _evaluate(writer)
    found = _violations(writer, policy["id"])
    assert sorted(found) == ["checked", "disabled_only", "unchecked"]
    assert found["checked"]["reason"] == "has no enabled quality rule of type unique"


def test_tag_propagation_through_several_hops_and_a_cycle(writer: httpx.Client) -> None:
    """src[pii] -> a[pii] -> b -> c -> d, and d -> b closes a cycle."""
    put_asset(writer, "src", tags=["pii"])
    put_asset(writer, "a", tags=["PII"])
    for asset_id in ("b", "c", "d", "unrelated"):
        put_asset(writer, asset_id)
    _edges(writer, [("src", "a"), ("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")])
    policy = _policy(writer, kind="tag_propagation", params={"tag": "PII"}, severity="critical")
    assert policy["params"] == {"tag": "pii"}  # walks as deep as the service does
    _evaluate(writer)
    found = _violations(writer, policy["id"])
    assert sorted(found) == ["b", "c", "d"]
    assert found["b"]["path"] == ["a", "b"]
    assert found["d"]["path"] == ["a", "b", "c", "d"]
    assert found["d"]["reason"] == "lacks tag pii, carried 3 hop(s) upstream by a"
    for asset_id in ("b", "c", "d"):
        put_asset(writer, asset_id, tags=["pii"])
    _evaluate(writer)
    assert _violations(writer, policy["id"]) == {}
    assert sorted(_alerts(writer)) == sorted(
        [("opened", x) for x in "bcd"] + [("resolved", x) for x in "bcd"]
    )


def test_tag_propagation_respects_max_depth(writer: httpx.Client) -> None:
    put_asset(writer, "src", tags=["pii"])
    for asset_id in ("x1", "x2", "x3"):
        put_asset(writer, asset_id)
    _edges(writer, [("src", "x1"), ("x1", "x2"), ("x2", "x3")])
    policy = _policy(writer, kind="tag_propagation", params={"tag": "pii", "max_depth": 2})
    _evaluate(writer)
    assert sorted(_violations(writer, policy["id"])) == ["x1", "x2"]


def test_restricted_flow_finds_the_path_within_max_depth(writer: httpx.Client) -> None:
    """pii.users -> stage -> wide -> public.export (3 hops), public.export -> stage (cycle)."""
    put_asset(writer, "pii.users", tags=["pii"])
    put_asset(writer, "stage")
    put_asset(writer, "wide")
    put_asset(writer, "public.export", platform="s3-public")
    put_asset(writer, "safe.users", tags=["pii"])
    _edges(
        writer,
        [
            ("pii.users", "stage"),
            ("stage", "wide"),
            ("wide", "public.export"),
            ("public.export", "stage"),
        ],
    )
    params = {"to": {"platform": "s3-public"}, "max_depth": 2}
    policy = _policy(writer, kind="restricted_flow", selector={"tags": ["pii"]}, params=params)
    _evaluate(writer)
    assert _violations(writer, policy["id"]) == {}  # three hops away: within 2 it holds
    writer.patch(f"/policies/{policy['id']}", json={"params": {"max_depth": 3}})
    _evaluate(writer)
    found = _violations(writer, policy["id"])
    assert list(found) == ["pii.users"]
    assert found["pii.users"]["path"] == ["pii.users", "stage", "wide", "public.export"]
    assert found["pii.users"]["reason"] == "flows within 3 hop(s) into public.export"
    assert (
        writer.delete("/lineage/edges", params={"source": "stage", "target": "wide"}).status_code
        == 204
    )
    _evaluate(writer)
    assert _violations(writer, policy["id"]) == {}
    assert _alerts(writer) == [("opened", "pii.users"), ("resolved", "pii.users")]


@pytest.fixture
def evaluating(make_settings: Callable[..., Settings], tokens: Tokens) -> Iterator[httpx.Client]:
    """A service of its own that evaluates in the background (the shared one does not)."""
    server = LiveServer(create_app(make_settings(policies=EVALUATING))).start()
    try:
        with client_for(server, tokens.write) as client:
            yield client
    finally:
        server.stop()


def test_background_evaluation_follows_changes_and_announces_once(
    evaluating: httpx.Client, driver: neo4j.Driver
) -> None:
    writer = evaluating
    put_asset(writer, "t1")
    policy = _policy(writer, kind="require_owner")
    _wait(lambda: list(_violations(writer, policy["id"])) == ["t1"])
    assert writer.get(f"/policies/{policy['id']}").json()["evaluated_at"] is not None
    for i in range(5):  # a burst: debounced, each violation still announced once
        put_asset(writer, f"t{i + 2}")
    _wait(lambda: len(_violations(writer, policy["id"])) == 6)
    put_asset(writer, "t1", owners=["x@example.com"])
    _wait(lambda: "t1" not in _violations(writer, policy["id"]))
    # every event so far acted on, the evaluator's own alerts too: nothing new to announce
    _wait(lambda: caught_up(driver, POLICY_EVALUATOR))
    alerts = _alerts(writer)
    assert sorted(alerts) == sorted(
        [("opened", f"t{i}") for i in range(1, 7)] + [("resolved", "t1")]
    )


def _wait(condition: Callable[[], bool]) -> None:
    eventually(condition, timeout=15, what="background evaluation caught up")


def test_disabling_or_deleting_a_policy_resolves_its_violations(writer: httpx.Client) -> None:
    put_asset(writer, "a")
    put_asset(writer, "b")
    first = _policy(writer, kind="require_owner", selector={"id_prefix": "a"})
    second = _policy(writer, kind="require_owner", selector={"id_prefix": "b"})
    _evaluate(writer)
    writer.patch(f"/policies/{first['id']}", json={"enabled": False})
    _evaluate(writer)
    assert _violations(writer, first["id"]) == {}
    assert writer.delete(f"/policies/{second['id']}").status_code == 204
    assert _alerts(writer) == [
        ("opened", "a"),
        ("opened", "b"),
        ("resolved", "a"),
        ("resolved", "b"),
    ]


def test_crud_versions_filters_and_404(writer: httpx.Client) -> None:
    policy = _policy(writer, kind="require_owner", description="every table has an owner")
    url = f"/policies/{policy['id']}"
    assert policy["id"].startswith("pol_") and policy["version"] == 1
    assert policy["enabled"] is True and policy["severity"] == "medium"
    assert writer.get(url).headers["etag"] == '"1"'
    replaced = writer.put(url, json={**policy, "severity": "low"})
    assert replaced.status_code == 200 and replaced.json()["version"] == 2
    assert writer.put(url, json={**policy, "severity": "low"}).json()["version"] == 2
    assert writer.put(url, json=policy, headers={"If-Match": '"1"'}).status_code == 412
    other = _policy(writer, kind="tag_propagation", params={"tag": "pii"}, enabled=False)
    kinds = writer.get("/policies", params={"kind": "tag_propagation"}).json()["items"]
    assert [p["id"] for p in kinds] == [other["id"]]
    enabled = writer.get("/policies", params={"enabled": "true"}).json()["items"]
    assert [p["id"] for p in enabled] == [policy["id"]]
    assert writer.get("/policies", params={"kind": "bogus"}).status_code == 422
    assert writer.delete(url, headers={"If-Match": '"1"'}).status_code == 412
    assert writer.delete(url).status_code == 204
    for response in (
        writer.get(url),
        writer.put(url, json={"name": "p", "kind": "require_owner"}),
        writer.patch(url, json={"enabled": False}),
        writer.delete(url),
        writer.get(url + "/violations"),
    ):
        assert response.status_code == 404, response.text
        assert response.json()["code"] == "policy_not_found"
    types = [e["type"] for e in writer.get("/events", params={"types": "policy.*"}).json()["items"]]
    assert types == ["policy.created", "policy.updated", "policy.created", "policy.deleted"]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"kind": "require_everything"}, ["body", "kind"]),
        ({}, ["body", "kind"]),
        ({"kind": "require_owner", "name": ""}, ["body", "name"]),
        ({"kind": "require_owner", "severity": "urgent"}, ["body", "severity"]),
        ({"kind": "require_owner", "selector": {"colour": "red"}}, ["body", "selector", "colour"]),
        ({"kind": "require_owner", "selector": {"tags": "pii"}}, ["body", "selector", "tags"]),
        ({"kind": "require_owner", "selector": []}, ["body", "selector"]),
        ({"kind": "require_owner", "params": {"tag": "x"}}, ["body", "params", "tag"]),
        ({"kind": "tag_propagation"}, ["body", "params", "tag"]),
        ({"kind": "tag_propagation", "params": {"tag": 3}}, ["body", "params", "tag"]),
        (
            {"kind": "tag_propagation", "params": {"tag": "x", "max_depth": 51}},
            ["body", "params", "max_depth"],
        ),
        ({"kind": "restricted_flow", "params": {}}, ["body", "params", "to"]),
        (
            {"kind": "restricted_flow", "params": {"to": {"plat": "x"}}},
            ["body", "params", "to", "plat"],
        ),
        (
            {"kind": "restricted_flow", "params": {"to": {}, "max_depth": 0}},
            ["body", "params", "max_depth"],
        ),
        (
            {"kind": "require_quality_rule", "params": {"types": ["sometimes"]}},
            ["body", "params", "types", 0],
        ),
        ({"kind": "require_owner", "extra": 1}, ["body", "extra"]),
    ],
)
def test_invalid_policies_are_422_naming_the_field_and_write_nothing(
    writer: httpx.Client, body: dict[str, Any], loc: list[Any]
) -> None:
    response = writer.post("/policies", json={"name": "p", **body})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert loc in [e["loc"] for e in response.json()["errors"]], response.json()["errors"]
    assert writer.get("/policies").json()["items"] == []
    assert writer.get("/events", params={"types": "policy.*"}).json()["items"] == []


def test_a_patch_is_validated_for_the_resulting_kind(writer: httpx.Client) -> None:
    policy = _policy(writer, kind="require_owner")
    url = f"/policies/{policy['id']}"
    response = writer.patch(url, json={"kind": "tag_propagation"})
    assert response.status_code == 422
    assert ["body", "params", "tag"] in [e["loc"] for e in response.json()["errors"]]
    assert writer.patch(url, json={"version": 9}).status_code == 422
    ok = writer.patch(url, json={"kind": "tag_propagation", "params": {"tag": "pii"}})
    assert ok.status_code == 200 and ok.json()["kind"] == "tag_propagation"


def test_violations_page_by_asset_id(writer: httpx.Client) -> None:
    for i in range(7):
        put_asset(writer, f"v{i}")
    policy = _policy(writer, kind="require_owner")
    _evaluate(writer)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        response = writer.get(f"/policies/{policy['id']}/violations", params=params)
        page = response.json()
        seen += [v["asset_id"] for v in page["violations"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert 'rel="next"' in response.headers["link"]
    assert seen == [f"v{i}" for i in range(7)]


def test_lineage_policies_stay_linear_on_2_to_the_40_paths(writer: httpx.Client) -> None:
    _edges(writer, plans.lattice(40))
    put_asset(writer, "top", tags=["pii"])
    put_asset(writer, "r40", type="dashboard")
    tags = _policy(writer, kind="tag_propagation", params={"tag": "pii"})
    flow = _policy(
        writer,
        kind="restricted_flow",
        selector={"tags": ["pii"]},
        params={"to": {"type": "dashboard"}},
    )
    _evaluate(writer)  # an evaluation enumerating the 2^40 paths would meet its deadline
    assert list(_violations(writer, tags["id"])) == ["r40"]  # the only real asset downstream
    found = _violations(writer, flow["id"])
    path = found["top"]["path"]
    assert len(path) == 42 and path[0] == "top" and path[-1] == "r40"  # one node per level


def test_the_impact_walk_plans_a_pruning_breadth_first_expand(driver: neo4j.Driver) -> None:
    """Guards the linear-cost design of a failing rule's impact walk."""
    statement = cypher.load()["quality.impact"].statement({"depth": 50})
    summary = driver.execute_query("EXPLAIN " + statement, {"asset_ids": ["x"]}).summary
    assert any(op.startswith("VarLengthExpand(Pruning") for op in plans.operators(summary.plan))


def test_a_restricted_asset_that_is_governed_flows_into_another(writer: httpx.Client) -> None:
    put_asset(writer, "pii.dash", type="dashboard", tags=["pii"])
    put_asset(writer, "other.dash", type="dashboard")
    put_asset(writer, "lonely.dash", type="dashboard", tags=["pii"])
    _edges(writer, [("pii.dash", "mid"), ("mid", "other.dash"), ("other.dash", "pii.dash")])
    params = {"to": {"type": "dashboard"}, "max_depth": 5}
    policy = _policy(writer, kind="restricted_flow", selector={"tags": ["pii"]}, params=params)
    _evaluate(writer)
    found = _violations(writer, policy["id"])
    assert list(found) == ["pii.dash"]  # lonely.dash reaches no other dashboard
    assert found["pii.dash"]["path"] == ["pii.dash", "mid", "other.dash"]
