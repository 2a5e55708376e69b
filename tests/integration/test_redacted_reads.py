"""Reads beyond the traversal that redact: the lineage diff, column lineage, change
impact and traversal filters show an asset of a private domain the caller holds no
role in as a stand-in naming only its owning team. Every test reads the raw body:
no hidden id, name or column appears in it, and the counts stay those an admin sees."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx

from tests.support.corner_shop import ANALYSIS, BOARD, ORDERS, WAREHOUSE, project, send
from tests.support.dashboard import make_user, page_csrf, sign_in
from tests.support.finance import SECRETS, finance, unleaked
from tests.support.history import moment
from tests.support.server import LiveServer
from tests.support.writes import edge, put_asset

__all__ = ["finance", "project"]  # fixtures, used by name


def test_the_diff_shows_hidden_changes_as_stand_ins_one_per_asset(
    finance: None, admin: httpx.Client, reader: httpx.Client
) -> None:
    put_asset(admin, "raw", "Raw")
    put_asset(admin, "fin.secret", "Secret ledger")
    put_asset(admin, "fin.report", "Report ledger")
    edge(admin, "raw", "fin.secret", transformation="select salary")
    edge(admin, "fin.secret", "fin.report")
    start = moment()
    edge(admin, "raw", "fin.secret", transformation="select bonus")
    gone = admin.delete("/lineage/edges", params={"source": "fin.secret", "target": "fin.report"})
    assert gone.status_code == 204
    put_asset(admin, "fin.new", "Report ledger 2")
    edge(admin, "raw", "fin.new")

    params: dict[str, str | int] = {"from": start, "direction": "downstream", "depth": 5}
    body = unleaked(reader.get("/lineage/raw/diff", params=params))
    seen = admin.get("/lineage/raw/diff", params=params).json()

    assert body["redacted"] == 3 and seen["redacted"] == 0
    assert [(n["id"], n["team"], n["distance"]) for n in body["added"]["nodes"]] == [
        ("redacted:1", "fin", 1)
    ]
    assert body["added"]["edges"] == [
        {"source": "raw", "target": "redacted:1", "transformation": None}
    ]
    assert [(n["id"], n["redacted"], n["name"]) for n in body["removed"]["nodes"]] == [
        ("redacted:2", True, "redacted:2")
    ]
    # fin.secret is in neither list: the edge end gets its own stand-in
    assert body["removed"]["edges"] == [
        {"source": "redacted:3", "target": "redacted:2", "transformation": None}
    ]
    assert body["changed"]["edges"] == [
        {
            "source": "raw",
            "target": "redacted:3",
            "transformation": None,
            "previous_transformation": None,
        }
    ]
    for part in ("added", "removed"):
        for kind in ("nodes", "edges"):
            assert len(body[part][kind]) == len(seen[part][kind]), (part, kind)
    assert len(body["changed"]["edges"]) == len(seen["changed"]["edges"]) == 1
    assert seen["changed"]["edges"][0]["previous_transformation"] == "select salary"


def test_column_lineage_through_a_hidden_asset_shows_neither_it_nor_its_columns(
    finance: None, admin: httpx.Client, reader: httpx.Client
) -> None:
    for asset_id, name in (("raw", "Raw"), ("fin.secret", "Secret ledger"), ("mart", "Mart")):
        put_asset(admin, asset_id, name)
    put_asset(admin, "fin.report", "Report ledger")
    mapping = {"transformation": "sum(salary)"}
    edge(admin, "raw", "fin.secret", columns=[{"source": "id", "target": "salary", **mapping}])
    edge(admin, "fin.secret", "fin.report", columns=[{"source": "salary", "target": "bonus"}])
    edge(admin, "fin.secret", "mart", columns=[{"source": "salary", "target": "total"}])
    edge(admin, "fin.report", "mart", columns=[{"source": "bonus", "target": "total"}])

    path = "/lineage/raw/columns/id/downstream"
    body = unleaked(reader.get(path, params={"depth": 5}))
    seen = admin.get(path, params={"depth": 5}).json()

    assert (body["redacted"], seen["redacted"]) == (2, 0)
    assert len(body["nodes"]) == len(seen["nodes"]) == 4
    assert len(body["edges"]) == len(seen["edges"]) == 4
    assert [(n["asset"], n["column"], n["distance"], n.get("team")) for n in body["nodes"]] == [
        ("raw", "id", 0, None),
        ("redacted:1", "redacted:1", 1, "fin"),
        # fin.report sorts before mart, yet its stand-in comes after: no order tells of it
        ("mart", "total", 2, None),
        ("redacted:2", "redacted:2", 2, "fin"),
    ]
    pairs = {
        (e["source"]["asset"], e["source"]["column"], e["target"]["asset"], e["target"]["column"])
        for e in body["edges"]
    }
    assert pairs == {
        ("raw", "id", "redacted:1", "redacted:1"),
        ("redacted:1", "redacted:1", "redacted:2", "redacted:2"),
        ("redacted:1", "redacted:1", "mart", "total"),
        ("redacted:2", "redacted:2", "mart", "total"),
    }
    assert all(e["transformation"] is None for e in body["edges"])
    # upstream from the readable end, through both hidden assets
    up = unleaked(reader.get("/lineage/mart/columns/total/upstream", params={"depth": 5}))
    assert up["redacted"] == 2 and len(up["nodes"]) == 4


def test_a_filter_never_tells_whether_a_hidden_asset_matches(
    finance: None, admin: httpx.Client, reader: httpx.Client
) -> None:
    put_asset(admin, "raw", "Raw")
    put_asset(admin, "mart", "Mart", tags=["pii"])
    put_asset(admin, "fin.secret", "Secret ledger", tags=["pii"])
    put_asset(admin, "fin.report", "Report ledger", type="view")
    for source, target in (("raw", "fin.secret"), ("fin.secret", "fin.report"), ("raw", "mart")):
        edge(admin, source, target)

    def walk(client: httpx.Client, **params: Any) -> dict[str, Any]:
        answer = client.get("/lineage/raw/downstream", params={"depth": 5, **params})
        return unleaked(answer) if client is reader else dict(answer.json())

    for extra in ({}, {"fanout": 5}):
        matching = walk(reader, tag="pii", **extra)  # fin.secret carries the tag
        other = walk(reader, tag="gdpr", **extra)  # no asset carries it
        assert [n["id"] for n in matching["nodes"]] == ["raw", "mart"]
        assert matching["redacted"] == 0 and matching["hidden"] == {"downstream": 2}
        assert [n["id"] for n in other["nodes"]] == ["raw"]
        assert other["hidden"] == {"downstream": 3}
        by_type = walk(reader, type="view", **extra)  # fin.report is a view
        assert [n["id"] for n in by_type["nodes"]] == ["raw"]
        assert by_type["hidden"] == {"downstream": 3}
        # the admin sees the matches, with the same walk and the same totals
        seen = walk(admin, tag="pii", **extra)
        assert [n["id"] for n in seen["nodes"]] == ["raw", "fin.secret", "mart"]
        assert len(seen["nodes"]) + seen["hidden"]["downstream"] == 4
    # without a filter the stand-ins keep the path, as before
    whole = walk(reader)
    assert whole["redacted"] == 2 and len(whole["nodes"]) == 4
    # a fanout cut at a hidden asset is not listed by its id either
    edge(admin, "fin.secret", "mart")
    cut = walk(reader, tag="pii", fanout=1)
    assert {c["id"] for c in cut["capped"]} <= {n["id"] for n in cut["nodes"]}
    assert "fin.secret" in {c["id"] for c in walk(admin, tag="pii", fanout=1)["capped"]}


def test_change_impact_shows_hidden_changed_and_impacted_assets_as_stand_ins(
    project: dict[str, Any], live: LiveServer, admin: httpx.Client, reader: httpx.Client
) -> None:
    # The dashboards' domain (private, team `bi`) holds the board and, by name, the
    # orders model the candidate removes.
    assert admin.put("/teams/bi", json={}).status_code == 201
    rules = [{"kind": "namespace", "value": "bi."}, {"kind": "asset", "value": ORDERS}]
    domain = {"owner_team": "bi", "private": True, "rules": rules}
    assert admin.put("/domains/dashboards", json=domain).status_code == 201
    put_asset(admin, "exec.summary", "Summary")
    edge(admin, BOARD, "exec.summary")
    candidate = copy.deepcopy(project)
    del candidate["nodes"][ORDERS]
    for node in candidate["nodes"].values():
        if ORDERS in node["depends_on"].get("nodes", []):
            node["depends_on"]["nodes"].remove(ORDERS)
    candidate["nodes"] = {
        k: n for k, n in candidate["nodes"].items() if n.get("attached_node") != ORDERS
    }

    def check(client: httpx.Client) -> httpx.Response:
        return send(client, "/impact/manifest", candidate, namespace=WAREHOUSE)

    answer = check(reader)
    assert answer.status_code == 200, answer.text
    for secret in (ORDERS, BOARD, "Orders board", "bi@example.com"):
        assert secret not in answer.text, secret
    body, seen = answer.json(), check(admin).json()
    assert (body["redacted"], seen["redacted"]) == (2, 0)
    assert len(body["changes"]) == len(seen["changes"])
    assert len(body["impacted"]) == len(seen["impacted"])
    assert body["breaking"] is seen["breaking"] is True
    assert [(c["kind"], c["asset"], c["team"]) for c in body["changes"]] == [
        ("model_removed", "redacted:1", "bi")
    ]
    impacted = {item["asset"]: item for item in body["impacted"]}
    assert impacted["redacted:2"]["owners"] == [] and impacted["redacted:2"]["team"] == "bi"
    assert impacted["redacted:2"]["via"] == ["redacted:1", "redacted:2"]
    assert impacted["exec.summary"]["via"] == ["redacted:1", "redacted:2", "exec.summary"]
    assert impacted[ANALYSIS]["via"] == ["redacted:1", ANALYSIS]
    # the readable ones first at each distance, the stand-in after them
    assert [i["asset"] for i in body["impacted"] if i["distance"] == 1][-1] == "redacted:2"

    # the dashboard's Check impact answers an editor outside the domain the same
    make_user(admin, "checker", "editor")
    files = {"file": ("manifest.json", json.dumps(candidate).encode(), "application/json")}
    with sign_in(live, "checker") as client:
        headers = {"X-CSRF-Token": page_csrf(client, "/ingest")}
        checked = client.post(
            "/ui/impact/manifest",
            params={"namespace": WAREHOUSE},
            files=files,
            headers=headers,
            timeout=180,
        )
    assert unleaked(checked) == body


def test_the_dashboards_compared_view_draws_hidden_changes_as_stand_ins(
    finance: None, live: LiveServer, admin: httpx.Client
) -> None:
    put_asset(admin, "raw", "Raw")
    put_asset(admin, "fin.secret", "Secret ledger")
    put_asset(admin, "fin.report", "Report ledger")
    edge(admin, "raw", "fin.secret")
    edge(admin, "raw", "fin.report")
    before = moment()
    gone = admin.delete("/lineage/edges", params={"source": "raw", "target": "fin.report"})
    assert gone.status_code == 204
    put_asset(admin, "fin.bonus", "Bonus ledger")
    edge(admin, "raw", "fin.bonus")
    make_user(admin, "olga", "viewer")
    params: dict[str, str | int] = {"depth": 2, "compare": before}

    with sign_in(live, "olga") as client:
        view = unleaked(client.get("/ui/lineage/raw", params=params))
        page = client.get("/lineage/raw", params=params)
    assert page.status_code == 200
    for secret in (*SECRETS, "fin.bonus", "Bonus ledger"):
        assert secret not in page.text, secret
    assert "fin.bonus" not in json.dumps(view)
    assert view["redacted"] == 3
    marks = sorted((n["id"], n.get("team"), n["change"]) for n in view["nodes"])
    assert marks == [
        ("raw", None, None),
        ("redacted:1", "fin", "added"),  # fin.bonus
        ("redacted:2", "fin", None),  # fin.secret, there at both moments
        ("redacted:3", "fin", "removed"),  # fin.report
    ]
    edges = sorted((e["source"], e["target"], e["change"]) for e in view["edges"])
    assert edges == [
        ("raw", "redacted:1", "added"),
        ("raw", "redacted:2", None),
        ("raw", "redacted:3", "removed"),
    ]
    seen = admin.get("/lineage/raw/diff", params={"depth": 2, "from": before}).json()
    assert len(seen["added"]["nodes"]) == len(seen["removed"]["nodes"]) == 1
