"""Per-domain roles through HTTP: a caller writes only where its role in each asset's
domain allows (403 `domain_forbidden` listing the assets, nothing written), a private
domain's assets are absent to callers with no role in it, and traversals show them as
stand-ins that keep the path and the counts but never the id or the name."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import neo4j
import pytest

from service.settings import Settings
from tests.conftest import client_for
from tests.support.dashboard import make_user, page_csrf, sign_in
from tests.support.server import LiveServer
from tests.support.tokens import token_of

# finance (private, owned by team `fin`) holds fin.secret; sales (public, owned by
# `sales`) holds sales.orders; public.raw is in no domain. A new rules stamp, as every
# domain change writes, says domains exist (the checks skip reading asset domains until
# one does).
ASSETS = ("public.raw", "sales.orders", "fin.secret", "fin.report")
PLACE = """
UNWIND $teams AS team MERGE (:Team {id: team})
WITH count(*) AS _
UNWIND $domains AS d
MERGE (domain:Domain {id: d.id}) SET domain.private = d.private, domain.owner_team = d.owner
WITH domain, d
MATCH (owner:Team {id: d.owner}) MERGE (owner)-[:GRANTED {role: 'admin'}]->(domain)
WITH count(*) AS _
UNWIND $assets AS a
MATCH (asset:Asset {id: a.id})
SET asset.domain = a.domain, asset.domain_private = CASE WHEN a.private THEN true END
WITH count(*) AS _
MERGE (s:DomainRules {id: 'rules'}) SET s.stamp = randomUUID()
"""
GRANT = """
MATCH (u:User {id: $user}), (t:Team {id: $team}), (d:Domain {id: $domain})
MERGE (u)-[:MEMBER_OF]->(t)
MERGE (t)-[g:GRANTED]->(d) SET g.role = $role
"""
JOIN = "MATCH (u:User {id: $user}), (t:Team {id: $team}) MERGE (u)-[:MEMBER_OF]->(t)"


@pytest.fixture
def world(admin: httpx.Client, driver: neo4j.Driver) -> None:
    for asset in ASSETS:
        made = admin.post("/assets", json={"id": asset, "name": f"{asset} name", "type": "table"})
        assert made.status_code == 201, made.text
    for source, target in (("public.raw", "fin.secret"), ("fin.secret", "fin.report")):
        edge = admin.post("/lineage", json={"source": source, "target": target})
        assert edge.status_code == 201, edge.text
    driver.execute_query(
        PLACE,
        teams=["fin", "sales"],
        domains=[
            {"id": "finance", "private": True, "owner": "fin"},
            {"id": "sales", "private": False, "owner": "sales"},
        ],
        assets=[
            {"id": "sales.orders", "domain": "sales", "private": False},
            {"id": "fin.secret", "domain": "finance", "private": True},
            {"id": "fin.report", "domain": "finance", "private": True},
        ],
    )


@pytest.fixture
def person(
    admin: httpx.Client,
    live: LiveServer,
    driver: neo4j.Driver,
    make_settings: Callable[..., Settings],
    world: None,
) -> Iterator[Callable[..., httpx.Client]]:
    """A client for a new user of `role` with `grants` ({domain: role} through a team
    of their own), holding a token of `scope`."""
    opened: list[httpx.Client] = []

    def make(name: str, role: str, scope: str, grants: dict[str, str] | None = None) -> Any:
        user = make_user(admin, name, role)
        for domain, domain_role in (grants or {}).items():
            driver.execute_query("MERGE (:Team {id: $team})", team=f"team-{name}-{domain}")
            driver.execute_query(
                GRANT,
                user=user["id"],
                team=f"team-{name}-{domain}",
                domain=domain,
                role=domain_role,
            )
        client = client_for(live, token_of(make_settings(), user["id"], scope))
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.close()


def _refused(response: httpx.Response, listed: dict[str, str | None]) -> None:
    assert response.status_code == 403, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == "domain_forbidden"
    assert {a["id"]: a["domain"] for a in body["assets"]} == listed
    assert body["assets_count"] == len(listed)


def _asset(admin: httpx.Client, asset_id: str) -> dict[str, Any]:
    answer = admin.get(f"/assets/{asset_id}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _edge_count(driver: neo4j.Driver) -> int:
    records, _, _ = driver.execute_query("MATCH ()-[e:LINEAGE]->() RETURN count(e) AS n")
    return int(records[0]["n"])


def test_a_domain_editor_is_refused_outside_their_domain_on_every_write_path(
    person: Callable[..., httpx.Client], admin: httpx.Client, driver: neo4j.Driver
) -> None:
    editor = person("sam", "viewer", "write", {"sales": "editor"})
    # finance is private and sam has no role in it: a refusal names the assets sam
    # sent but not the domain a read would hide.
    before = _asset(admin, "fin.report")
    edges = _edge_count(driver)

    _refused(
        editor.put("/assets/fin.report", json={"name": "x", "type": "table"}),
        {"fin.report": None},
    )
    _refused(
        editor.patch(
            "/assets/public.raw",
            json={"name": "x"},
            headers={"content-type": "application/merge-patch+json"},
        ),
        {"public.raw": None},
    )
    _refused(editor.delete("/assets/fin.report"), {"fin.report": None})
    _refused(
        editor.post("/lineage", json={"source": "sales.orders", "target": "fin.report"}),
        {"fin.report": None},
    )
    _refused(
        editor.post(
            "/lineage/bulk",
            json=[
                {"source": "sales.orders", "target": "fin.report"},
                {"source": "fin.secret", "target": "sales.orders"},
                {"source": "sales.orders", "target": "public.raw"},
            ],
        ),
        {"fin.report": None, "fin.secret": None, "public.raw": None},
    )
    event = {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-27T12:00:00Z",
        "run": {"runId": "0192b3c4-0000-7000-8000-000000000001"},
        "job": {"namespace": "jobs", "name": "load"},
        "producer": "https://example.com/test",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json",
        "inputs": [{"namespace": "governance:asset", "name": "sales.orders"}],
        "outputs": [{"namespace": "governance:asset", "name": "fin.report"}],
    }
    _refused(editor.post("/lineage/openlineage", json=event), {"fin.report": None})

    assert _asset(admin, "fin.report") == before
    assert _edge_count(driver) == edges


def test_a_dbt_upload_touching_another_domains_asset_is_refused_and_writes_nothing(
    person: Callable[..., httpx.Client], admin: httpx.Client, driver: neo4j.Driver
) -> None:
    manifest = _manifest()
    assert _upload(admin, manifest).status_code == 200
    driver.execute_query(
        "MATCH (a:Asset {id: 'model.shop.orders'}) SET a.domain = 'finance', a.domain_private = true"
    )
    before = _asset(admin, "model.shop.orders")
    editor = person("ana", "viewer", "write", {"sales": "editor"})
    manifest["nodes"]["model.shop.orders"]["description"] = "changed"
    _refused(_upload(editor, manifest), {"model.shop.orders": None})
    assert _asset(admin, "model.shop.orders") == before


def test_a_global_editor_is_refused_in_a_domain_where_they_hold_no_grant(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    editor = person("eve", "editor", "write")
    _refused(
        editor.patch(
            "/assets/sales.orders",
            json={"description": "x"},
            headers={"content-type": "application/merge-patch+json"},
        ),
        {"sales.orders": "sales"},
    )
    assert _asset(admin, "sales.orders").get("description") != "x"
    assert editor.get("/assets/sales.orders").status_code == 200  # public: readable
    written = editor.patch(
        "/assets/public.raw",
        json={"description": "ok"},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert written.status_code == 200, written.text


def test_a_global_viewer_with_a_domain_editor_grant_writes_inside_that_domain_only(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    editor = person("vic", "viewer", "write", {"sales": "editor"})
    me = editor.get("/me").json()
    assert (me["role"], me["domain_roles"], me["scopes"]) == (
        "viewer",
        {"sales": "editor"},
        ["read", "write"],
    )
    inside = editor.patch(
        "/assets/sales.orders",
        json={"description": "mine"},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert inside.status_code == 200, inside.text
    assert _asset(admin, "sales.orders")["description"] == "mine"
    _refused(
        editor.post("/assets", json={"id": "new.one", "name": "n", "type": "table"}),
        {"new.one": None},
    )
    assert admin.get("/assets/new.one").status_code == 404
    # Outside every domain the global role decides: a viewer creates no policy.
    assert editor.get("/policies").status_code == 200
    refused = editor.post("/policies", json={"name": "p", "kind": "require_owner"})
    assert (refused.status_code, refused.json()["code"]) == (403, "insufficient_scope")


def test_a_private_domains_asset_is_absent_and_redacted_to_callers_without_a_role(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    outsider = person("olga", "editor", "read", {"sales": "viewer"})
    assert outsider.get("/assets/fin.secret").status_code == 404
    assert outsider.get("/assets/fin.secret").json()["code"] == "asset_not_found"
    listed = outsider.get("/assets").json()["items"]
    assert [a["id"] for a in listed] == ["public.raw", "sales.orders"]
    assert outsider.get("/assets", params={"q": "fin"}).json()["items"] == []
    assert outsider.get("/lineage/edges").json()["items"] == []
    for path, params in (
        ("/lineage/fin.secret", {}),
        ("/lineage/fin.secret/upstream", {"as_of": "2030-01-01T00:00:00Z"}),
        ("/lineage/fin.secret/downstream", {"fanout": 2}),
        ("/lineage/fin.secret/columns/id/upstream", {}),
        ("/lineage/fin.secret/diff", {"from": "2020-01-01T00:00:00Z"}),
    ):
        hidden = outsider.get(path, params=params)
        assert (hidden.status_code, hidden.json()["code"]) == (404, "asset_not_found"), path
    assert len(admin.get("/lineage/edges").json()["items"]) == 2

    answer = outsider.get("/lineage/public.raw", params={"depth": 5})
    assert answer.status_code == 200, answer.text
    text = answer.text
    for leaked in ("fin.secret", "fin.report", "fin.secret name", "fin.report name"):
        assert leaked not in text
    body = answer.json()
    assert body["redacted"] == 2
    stand_ins = [n for n in body["nodes"] if n.get("redacted")]
    assert [(n["id"], n["team"], n["distance"]) for n in stand_ins] == [
        ("redacted:1", "fin", 1),
        ("redacted:2", "fin", 2),
    ]
    assert {(e["source"], e["target"]) for e in body["edges"]} == {
        ("public.raw", "redacted:1"),
        ("redacted:1", "redacted:2"),
    }
    insider = admin.get("/lineage/public.raw", params={"depth": 5}).json()
    assert insider["redacted"] == 0
    assert len(insider["nodes"]) == len(body["nodes"])

    # Paged one node at a time, the cursor never names a hidden asset either.
    cursor, seen = None, []
    while True:
        page = outsider.get(
            "/lineage/public.raw",
            params={"depth": 5, "limit": 1, **({"cursor": cursor} if cursor else {})},
        )
        assert page.status_code == 200, page.text
        for leaked in ("fin.secret", "fin.report"):
            assert leaked not in page.text
            assert leaked.encode() not in _decoded(page.json()["next_cursor"])
        seen += [n["distance"] for n in page.json()["nodes"]]
        cursor = page.json()["next_cursor"]
        if cursor is None:
            break
    assert seen == [0, 1, 2]


def test_a_role_in_the_private_domain_shows_its_assets(
    person: Callable[..., httpx.Client],
) -> None:
    member = person("fay", "viewer", "read", {"finance": "viewer"})
    assert member.get("/assets/fin.secret").status_code == 200
    body = member.get("/lineage/public.raw", params={"depth": 5}).json()
    assert body["redacted"] == 0
    assert {n["id"] for n in body["nodes"]} == {"public.raw", "fin.secret", "fin.report"}


def _decoded(cursor: str | None) -> bytes:
    import base64

    if cursor is None:
        return b""
    return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))


def _manifest() -> dict[str, Any]:
    model = {
        "unique_id": "model.shop.orders",
        "resource_type": "model",
        "name": "orders",
        "package_name": "shop",
        "database": "analytics",
        "schema": "marts",
        "alias": "orders",
        "original_file_path": "models/orders.sql",
        "config": {"enabled": True, "materialized": "table"},
        "tags": [],
        "description": "",
        "columns": {},
        "meta": {},
        "depends_on": {"nodes": [], "macros": []},
        "raw_code": "select 1",
    }
    return {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
            "dbt_version": "1.9.0",
            "project_name": "shop",
        },
        "nodes": {"model.shop.orders": model},
        "sources": {},
        "exposures": {},
        "disabled": {},
        "macros": {},
    }


def _upload(client: httpx.Client, document: dict[str, Any]) -> httpx.Response:
    return client.post(
        "/lineage/manifest",
        content=json.dumps(document),
        headers={"content-type": "application/json"},
    )


def test_a_new_asset_a_domains_rule_claims_is_refused_to_an_editor_without_a_grant_there(
    person: Callable[..., httpx.Client], admin: httpx.Client
) -> None:
    assert admin.put("/teams/claims", json={"display_name": "Claims"}).status_code in (200, 201)
    made = admin.put(
        "/domains/claimed",
        json={
            "owner_team": "claims",
            "rules": [{"kind": "namespace", "value": "claimed."}],
        },
    )
    assert made.status_code in (200, 201), made.text
    editor = person("gus", "editor", "write")
    _refused(
        editor.post("/assets", json={"id": "claimed.new", "name": "n", "type": "table"}),
        {"claimed.new": "claimed"},
    )
    _refused(
        editor.post("/lineage", json={"source": "public.raw", "target": "claimed.other"}),
        {"claimed.other": "claimed"},
    )
    assert admin.get("/assets/claimed.new").status_code == 404
    free = editor.post("/assets", json={"id": "free.new", "name": "n", "type": "table"})
    assert free.status_code == 201, free.text


def test_the_dashboards_manifest_upload_is_refused_outside_the_editors_domains(
    person: Callable[..., httpx.Client],
    admin: httpx.Client,
    driver: neo4j.Driver,
    live: LiveServer,
) -> None:
    manifest = _manifest()
    assert _upload(admin, manifest).status_code == 200
    driver.execute_query("MATCH (a:Asset {id: 'model.shop.orders'}) SET a.domain = 'sales'")
    before = _asset(admin, "model.shop.orders")
    person("dora", "editor", "read", {"finance": "editor"})
    manifest["nodes"]["model.shop.orders"]["description"] = "changed"
    with sign_in(live, "dora") as browser:
        answer = browser.post(
            "/ingest",
            data={"csrf_token": page_csrf(browser, "/ingest")},
            files={"file": ("manifest.json", json.dumps(manifest).encode(), "application/json")},
        )
    assert answer.status_code == 403, answer.text
    assert "model.shop.orders" in answer.text
    assert _asset(admin, "model.shop.orders") == before


def test_sql_lineage_into_a_domain_without_a_grant_there_is_refused(
    person: Callable[..., httpx.Client], admin: httpx.Client, driver: neo4j.Driver
) -> None:
    assert admin.put("/teams/claims", json={}).status_code in (200, 201)
    warehouse = "postgres://wh.example.com:5432"
    made = admin.put(
        "/domains/warehouse",
        json={"owner_team": "claims", "rules": [{"kind": "namespace", "value": warehouse}]},
    )
    assert made.status_code in (200, 201), made.text
    edges = _edge_count(driver)
    editor = person("hal", "editor", "write")
    answer = editor.post(
        "/lineage/sql",
        json={
            "dialect": "postgres",
            "namespace": warehouse,
            "sql": "insert into shop.public.orders_out select id from shop.public.orders",
        },
    )
    assert answer.status_code == 403, answer.text
    body = answer.json()
    assert body["code"] == "domain_forbidden"
    assert [a["domain"] for a in body["assets"]] == ["warehouse"]
    assert body["assets"][0]["id"].endswith("orders_out")
    assert _edge_count(driver) == edges
