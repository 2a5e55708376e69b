"""An ingestion's summary event (`lineage.bulk.ingested`, `lineage.manifest.ingested`)
is placed in the private domains of the assets the request wrote: a reader with no role
there never sees it (its counts, project and warnings speak of those assets), one with
a role does, and a summary touching only public assets reaches everyone."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import neo4j

from tests.integration import test_domain_access as access
from tests.integration import test_event_privacy as privacy
from tests.support.private_domain import PrivateDomain
from tests.support.progress import newest_event

people = privacy.people
OPENLINEAGE = {
    "eventType": "COMPLETE",
    "eventTime": "2026-11-27T12:00:00Z",
    "run": {"runId": "0192b3c4-0000-7000-8000-000000000002"},
    "job": {"namespace": "jobs", "name": "vault_load"},
    "producer": "https://example.com/test",
    "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json",
    "inputs": [{"namespace": "governance:asset", "name": "open.raw"}],
    "outputs": [{"namespace": "governance:asset", "name": "vaultasset.two"}],
}


def _ingested(client: httpx.Client, start: int) -> list[str]:
    answer = client.get("/events", params={"after": start, "limit": 500})
    assert answer.status_code == 200, answer.text
    return [e["type"] for e in answer.json()["items"] if e["type"].endswith(".ingested")]


def test_summaries_of_writes_to_private_assets_reach_only_readers_with_a_role(
    admin: httpx.Client,
    people: PrivateDomain,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
) -> None:
    # The dbt project `shop` is the private domain vaultdbt's, as its owners keep it.
    domain = {
        "owner_team": "vaultkeepers",
        "private": True,
        "rules": [{"kind": "dbt_project", "value": "shop"}],
    }
    assert admin.put("/domains/vaultdbt", json=domain).status_code == 201
    start = newest_event(driver)
    bulk = admin.post("/lineage/bulk", json=[{"source": "vaultasset.one", "target": "open.raw"}])
    assert bulk.status_code == 200, bulk.text
    assert admin.post("/lineage/openlineage", json=OPENLINEAGE).status_code == 200
    uploaded = access._upload(admin, access._manifest())
    assert uploaded.status_code == 200, uploaded.text
    assert admin.get("/assets/model.shop.orders").json()["domain"] == "vaultdbt"
    every = ["lineage.bulk.ingested", "lineage.bulk.ingested", "lineage.manifest.ingested"]
    assert _ingested(admin, start) == every
    assert _ingested(client_of(people.insider), start) == every
    outsider = client_of(people.outsider)
    assert _ingested(outsider, start) == []
    assert "shop" not in outsider.get("/events", params={"after": start, "limit": 500}).text


def test_a_summary_of_public_assets_reaches_every_reader(
    admin: httpx.Client,
    people: PrivateDomain,
    client_of: Callable[[str], httpx.Client],
    driver: neo4j.Driver,
) -> None:
    start = newest_event(driver)
    bulk = admin.post("/lineage/bulk", json=[{"source": "open.raw", "target": "open.next"}])
    assert bulk.status_code == 200, bulk.text
    assert _ingested(client_of(people.outsider), start) == ["lineage.bulk.ingested"]
