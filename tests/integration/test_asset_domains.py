"""Every asset write path places the asset in the domain its rules name (`domain`),
and every domain change places the assets again."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import neo4j
import pytest

from tests.support.dbt_fixtures import NEWEST, manifest
from tests.support.writes import put_asset

PG = "postgres://db:5432"


@pytest.fixture
def teams(admin: httpx.Client) -> None:
    for team in ("finance", "ops"):
        admin.put(f"/teams/{team}", json={}).raise_for_status()


def domain(admin: httpx.Client, domain_id: str, *rules: tuple[str, str], **extra: Any) -> None:
    body = {"owner_team": "finance", "rules": [{"kind": k, "value": v} for k, v in rules], **extra}
    answer = admin.put(f"/domains/{domain_id}", json=body)
    assert answer.status_code in (200, 201), answer.text


def domain_of(client: httpx.Client, asset_id: str) -> str | None:
    answer = client.get(f"/assets/{asset_id}")
    assert answer.status_code == 200, answer.text
    found: str | None = answer.json()["domain"]
    return found


@pytest.mark.usefixtures("teams")
def test_a_put_asset_answers_the_domain_its_rules_name(admin: httpx.Client) -> None:
    domain(admin, "money", ("namespace", "fin."))
    domain(admin, "pii", ("tag", "pii"))
    assert put_asset(admin, "fin.ledger")["domain"] == "money"
    assert put_asset(admin, "hr.people", tags=["pii"])["domain"] == "pii"
    assert put_asset(admin, "misc.thing")["domain"] is None
    listed = admin.get("/assets", params={"domain": "money"}).json()["items"]
    assert [a["id"] for a in listed] == ["fin.ledger"]
    searched = admin.get("/assets", params={"domain": "pii", "q": "people"}).json()["items"]
    assert [a["id"] for a in searched] == ["hr.people"]


@pytest.mark.usefixtures("teams")
def test_the_domain_follows_a_patch_and_a_sent_domain_is_ignored(admin: httpx.Client) -> None:
    domain(admin, "pii", ("tag", "pii"))
    put_asset(admin, "hr.people", domain="pii")
    assert domain_of(admin, "hr.people") is None
    patched = admin.patch(
        "/assets/hr.people",
        json={"tags": ["pii"]},
        headers={"content-type": "application/merge-patch+json"},
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["domain"] == "pii"
    unchanged = put_asset(admin, "hr.people", tags=["pii"])
    assert unchanged["version"] == patched.json()["version"]  # same domain: no new version


@pytest.mark.usefixtures("teams")
def test_precedence_explicit_then_project_then_namespace_then_tag(admin: httpx.Client) -> None:
    domain(admin, "a-tag", ("tag", "gold"))
    domain(admin, "b-namespace", ("namespace", "ns."))
    domain(admin, "c-project", ("dbt_project", "shop"))
    domain(admin, "d-explicit", ("asset", "ns.one"))
    both: dict[str, Any] = {"tags": ["gold"], "properties": {"dbt_project": "shop"}}
    assert put_asset(admin, "ns.one", **both)["domain"] == "d-explicit"
    assert put_asset(admin, "ns.two", **both)["domain"] == "c-project"
    assert put_asset(admin, "ns.three", tags=["gold"])["domain"] == "b-namespace"
    assert put_asset(admin, "other", tags=["gold"])["domain"] == "a-tag"


@pytest.mark.usefixtures("teams")
def test_lineage_placeholders_are_placed_by_their_id(admin: httpx.Client) -> None:
    domain(admin, "money", ("namespace", "fin."))
    answer = admin.post("/lineage/bulk", json=[{"source": "fin.raw", "target": "misc.out"}])
    assert answer.status_code in (200, 201), answer.text
    assert (domain_of(admin, "fin.raw"), domain_of(admin, "misc.out")) == ("money", None)


@pytest.mark.usefixtures("teams")
def test_openlineage_datasets_are_placed_by_their_namespace(admin: httpx.Client) -> None:
    domain(admin, "warehouse", ("namespace", f"{PG}/"))
    event = {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-27T10:00:00Z",
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4()), "facets": {}},
        "job": {"namespace": "airflow", "name": "etl", "facets": {}},
        "inputs": [{"namespace": PG, "name": "raw.orders"}],
        "outputs": [{"namespace": PG, "name": "stg.orders"}],
    }
    assert admin.post("/lineage/openlineage", json=event).status_code == 200
    placed = admin.get("/assets", params={"domain": "warehouse"}).json()["items"]
    assert sorted(a["id"] for a in placed) == [f"{PG}/raw.orders", f"{PG}/stg.orders"]


@pytest.mark.usefixtures("teams")
def test_a_dbt_upload_places_its_assets_by_project(admin: httpx.Client) -> None:
    document = manifest(NEWEST)
    project = document["metadata"]["project_name"]
    domain(admin, "analytics", ("dbt_project", project))
    answer = admin.post(
        "/lineage/manifest",
        content=json.dumps(document),
        headers={"content-type": "application/json"},
        timeout=300,
    )
    assert answer.status_code == 200, answer.text
    placed = admin.get("/assets", params={"domain": "analytics", "limit": 500}).json()["items"]
    models = [a for a in placed if a["id"].startswith("model.")]
    assert models and all(a["properties"]["dbt_project"] == project for a in placed)


@pytest.mark.usefixtures("teams")
def test_a_domain_change_places_existing_assets_again(
    admin: httpx.Client, driver: neo4j.Driver
) -> None:
    put_asset(admin, "fin.ledger")
    put_asset(admin, "fin.payments", tags=["ops"])
    put_asset(admin, "ops.jobs", tags=["ops"])
    domain(admin, "money", ("namespace", "fin."), private=True)
    assert admin.get("/domains/money").json()["asset_count"] == 2
    private = driver.execute_query(
        "MATCH (a:Asset {domain: 'money'}) RETURN collect(a.domain_private) AS p"
    ).records[0]["p"]
    assert private == [True, True]
    domain(admin, "money", ("asset", "fin.ledger"))  # narrower, and public now
    domain(admin, "ops-domain", ("tag", "ops"))
    assert [domain_of(admin, a) for a in ("fin.ledger", "fin.payments", "ops.jobs")] == [
        "money",
        "ops-domain",
        "ops-domain",
    ]
    left = driver.execute_query(
        "MATCH (a:Asset) WHERE a.domain_private IS NOT NULL RETURN count(a) AS n"
    ).records[0]["n"]
    assert left == 0
    assert admin.delete("/domains/money").status_code == 204
    assert domain_of(admin, "fin.ledger") is None
    assert admin.get("/domains/ops-domain").json()["asset_count"] == 2
