"""Policies, quality rules, dbt run results and queries against a running service
(GOVERNANCE_URL, GOVERNANCE_TOKEN with the admin scope), as `clients/harness.py
python` provides. Other tests share the database: each works under its own id
prefix, and every policy is scoped to that prefix and deleted afterwards."""

from __future__ import annotations

import contextlib
import itertools
import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from governance_client import (
    AsyncClient,
    Client,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    ValidationError,
)

DBT_QUALITY = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "dbt_quality"
# A test that fails in run_results_failing.json (its `failures` is 1).
FAILING_TEST = "test.quality_shop.not_null_orders_customer_id.c5f02694af"

pytestmark = pytest.mark.live


@pytest.fixture
def policies(client: Client) -> Iterator[list[str]]:
    """Ids of policies a test made; deleted afterwards, so no other test evaluates them."""
    made: list[str] = []
    yield made
    for policy_id in made:
        with contextlib.suppress(NotFoundError):
            client.policies.delete(policy_id)


OPERATIONS = {
    "/api/v1/policies": {"get", "post"},
    "/api/v1/policies/evaluate": {"post"},
    "/api/v1/policies/{policy_id}": {"get", "put", "patch", "delete"},
    "/api/v1/policies/{policy_id}/violations": {"get"},
    "/api/v1/quality/rules": {"get", "post"},
    "/api/v1/quality/rules/{rule_id}": {"get", "put", "patch", "delete"},
    "/api/v1/quality/rules/{rule_id}/results": {"get", "post"},
    "/api/v1/quality/results/dbt": {"post"},
    "/api/v1/query": {"post"},
    "/api/v1/query/cypher": {"post"},
}


def test_the_openapi_document_describes_every_operation_called_here(client: Client) -> None:
    paths = client.openapi()["paths"]
    for path, methods in OPERATIONS.items():
        assert path in paths, path
        assert methods <= set(paths[path]), (path, methods - set(paths[path]))


def _evaluation_of(client: Client, policy_id: str) -> dict[str, Any]:
    summary = client.policies.evaluate()
    assert summary["evaluated_at"]
    mine = [p for p in summary["policies"] if p["policy_id"] == policy_id]
    assert len(mine) == 1, f"{policy_id} was not evaluated"
    return dict(mine[0])


def test_a_missing_owner_is_a_violation_until_fixed(
    client: Client, prefix: str, policies: list[str]
) -> None:
    orders, documented = f"{prefix}.orders", f"{prefix}.customers"
    client.assets.create(orders, name="Orders", type="table")
    client.assets.create(documented, name="Customers", type="table", owners=["crm@example.com"])
    policy = client.policies.create(
        f"{prefix} tables have owners",
        kind="require_owner",
        selector={"id_prefix": prefix, "type": "table"},
        severity="high",
    )
    policies.append(policy["id"])
    assert policy["id"].startswith("pol_")
    assert (policy["kind"], policy["severity"], policy["enabled"], policy["version"]) == (
        "require_owner",
        "high",
        True,
        1,
    )

    assert _evaluation_of(client, policy["id"])["violations"] == 1
    found = list(client.policies.iter_violations(policy["id"]))
    assert [v["asset_id"] for v in found] == [orders]
    assert found[0]["reason"]
    page = client.policies.list_violations(policy["id"], limit=1)
    assert (page["policy_id"], page["next_cursor"]) == (policy["id"], None)
    assert page["evaluated_at"]

    client.assets.patch(orders, {"owners": ["sales@example.com"]})
    # The service also evaluates in the background after a change, so which of the two
    # evaluations opened or resolved the violation is not told; the outcome is.
    assert _evaluation_of(client, policy["id"])["violations"] == 0
    assert list(client.policies.iter_violations(policy["id"])) == []


def test_a_policy_is_read_changed_and_deleted_with_if_match(
    client: Client, prefix: str, policies: list[str]
) -> None:
    policy = client.policies.create(
        f"{prefix} pii propagates",
        kind="tag_propagation",
        selector={"id_prefix": prefix},
        params={"tag": "PII"},
        enabled=False,
    )
    policies.append(policy["id"])
    assert policy["params"] == {"tag": "pii"}  # no max_depth: as deep as the service allows
    assert client.policies.get(policy["id"]) == policy
    listed = [p["id"] for p in client.policies.iter(kind="tag_propagation", enabled=False)]
    assert policy["id"] in listed
    assert policy["id"] not in [p["id"] for p in client.policies.iter(enabled=True)]

    patched = client.policies.patch(policy["id"], {"severity": "critical"}, if_match=1)
    assert (patched["severity"], patched["version"]) == ("critical", 2)
    with pytest.raises(PreconditionFailedError):
        client.policies.replace(policy["id"], name="stale", kind="require_description", if_match=1)
    replaced = client.policies.replace(
        policy["id"],
        name=f"{prefix} documented",
        kind="require_description",
        selector={"id_prefix": prefix},
        enabled=False,
        if_match=2,
    )
    assert (replaced["kind"], replaced["params"], replaced["severity"]) == (
        "require_description",
        {},
        "medium",
    )
    with pytest.raises(PreconditionFailedError):
        client.policies.delete(policy["id"], if_match=2)
    client.policies.delete(policy["id"], if_match=replaced["version"])
    with pytest.raises(NotFoundError):
        client.policies.get(policy["id"])


def test_a_bad_policy_kind_is_a_validation_error_naming_the_field(
    client: Client, prefix: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        client.policies.create(f"{prefix} magic", kind="require_magic")
    error = caught.value
    assert (error.status, error.code) == (422, "validation_error")
    assert ["body", "kind"] in [e["loc"] for e in error.errors]

    with pytest.raises(ValidationError) as missing:
        client.policies.create(f"{prefix} no tag", kind="tag_propagation", params={})
    assert ["body", "params", "tag"] in [e["loc"] for e in missing.value.errors]


def test_a_failing_result_turns_the_rule_failing_and_stays_in_history(
    client: Client, prefix: str
) -> None:
    asset = f"{prefix}/s3://lake/orders.parquet"
    client.assets.create(asset, name="Orders", type="file")
    rule = client.quality.create(
        asset, name="order id not null", type="not_null", column="order_id", severity="error"
    )
    assert rule["id"].startswith("qr_")
    assert (rule["status"], rule["last_result"], rule["version"]) == ("unknown", None, 1)

    earlier = datetime.now(UTC) - timedelta(minutes=5)
    passed = client.quality.record_result(rule["id"], "pass", observed_value=0, run_at=earlier)
    assert (passed["status"], passed["rule_id"], passed["source"]) == ("pass", rule["id"], "api")
    assert client.quality.get(rule["id"])["status"] == "passing"

    failed = client.quality.record_result(
        rule["id"], "fail", observed_value=3, message="3 null rows"
    )
    now = client.quality.get(rule["id"])
    assert now["status"] == "failing"
    assert now["last_result"] is not None
    assert now["last_result"]["status"] == "fail"
    assert [r["id"] for r in client.quality.list(asset_id=asset, status="failing")["items"]] == [
        rule["id"]
    ]
    assert client.quality.list(asset_id=asset, status="passing")["items"] == []

    history = list(client.quality.iter_results(rule["id"], limit=1))
    assert [r["id"] for r in history] == [failed["id"], passed["id"]]
    assert [r["status"] for r in history] == ["fail", "pass"]
    assert (history[0]["observed_value"], history[0]["message"]) == (3, "3 null rows")

    patched = client.quality.patch(rule["id"], {"severity": "warn"}, if_match=1)
    assert (patched["severity"], patched["status"], patched["version"]) == ("warn", "failing", 2)
    replaced = client.quality.replace(
        rule["id"],
        asset_id=asset,
        name="order id unique",
        type="unique",
        column="order_id",
        if_match=2,
    )
    assert (replaced["type"], replaced["status"]) == ("unique", "failing")
    client.quality.delete(rule["id"], if_match=replaced["version"])
    with pytest.raises(NotFoundError):
        client.quality.get(rule["id"])


def _fresh_run(document: dict[str, Any], at: datetime) -> dict[str, Any]:
    """run_results_failing.json as a new dbt invocation at ``at``: the service records
    an invocation once and keeps each rule's newest result by time, and other runs of
    these tests have uploaded this file before."""
    fresh = json.loads(json.dumps(document))
    fresh["metadata"]["invocation_id"] = str(uuid.uuid4())
    fresh["metadata"]["generated_at"] = at.isoformat().replace("+00:00", "Z")
    for result in fresh["results"]:
        result["timing"] = []  # so each result's run_at is generated_at
    return fresh


def test_a_dbt_run_records_failures_against_the_manifest_rules(client: Client) -> None:
    manifest = client.lineage.upload_manifest(DBT_QUALITY / "manifest.json")
    assert manifest["project"] == "quality_shop"
    rules = manifest["quality_rules"]
    assert rules["created"] + rules["updated"] >= 0
    assert client.quality.get(FAILING_TEST)["asset_id"] == "model.quality_shop.orders"

    # Recorded the first time; later runs of these tests find its invocation recorded.
    as_made = client.quality.upload_dbt_results(DBT_QUALITY / "run_results_failing.json")
    assert as_made["received"] == 24
    assert as_made["recorded"] + as_made["duplicates"] == 24

    # Make the rule pass now, then upload the failing run again as a newer invocation.
    now = datetime.now(UTC)
    client.quality.record_result(FAILING_TEST, "pass", run_at=now - timedelta(seconds=1))
    assert client.quality.get(FAILING_TEST)["status"] == "passing"
    document = json.loads((DBT_QUALITY / "run_results_failing.json").read_text(encoding="utf-8"))
    fresh = _fresh_run(document, now)
    summary = client.quality.upload_dbt_results(fresh)
    assert summary["failed"], summary
    assert FAILING_TEST in summary["failed"]
    assert (summary["received"], summary["unmatched"], summary["duplicates"]) == (24, [], 0)
    assert summary["recorded"] == 24

    rule = client.quality.get(FAILING_TEST)
    assert rule["status"] == "failing"
    newest = client.quality.list_results(FAILING_TEST, limit=1)["items"][0]
    assert newest["source"] == f"dbt:{fresh['metadata']['invocation_id']}"
    assert (newest["status"], newest["observed_value"]) == ("fail", 1)

    again = client.quality.upload_dbt_results(json.dumps(fresh).encode())
    assert (again["recorded"], again["duplicates"], again["failed"]) == (0, 24, [])


def _chain(client: Client, prefix: str) -> list[str]:
    """root -> a -> b -> c."""
    ids = [f"{prefix}.{name}" for name in ("root", "a", "b", "c")]
    for asset_id in ids:
        client.assets.create(asset_id, name=asset_id, type="table", platform="postgres")
    client.lineage.bulk(list(itertools.pairwise(ids)))
    return ids


def test_a_query_pages_downstream_nodes_and_counts_them(client: Client, prefix: str) -> None:
    root, *downstream = _chain(client, prefix)
    body: dict[str, Any] = {
        "start": {"ids": [root]},
        "traverse": {"direction": "downstream", "max_depth": 5},
        "return": "nodes",
        "limit": 1,
    }
    first = client.query.run(body)
    assert [n["id"] for n in first.get("nodes", [])] == downstream[:1]
    assert first.get("next_cursor")

    pages = list(client.query.pages(body))
    assert len(pages) == 3
    assert pages[-1].get("next_cursor") is None
    nodes = list(client.query.iter(body))
    assert [n["id"] for n in nodes] == downstream
    assert [n["distance"] for n in nodes] == [1, 2, 3]

    counted = client.query.run({**body, "return": "count"})
    assert (counted.get("count"), counted.get("next_cursor")) == (3, None)
    edges = list(client.query.iter({**body, "return": "edges", "traverse": {
        "direction": "downstream", "min_depth": 0}}))  # fmt: skip
    assert len(edges) == 3
    path = client.query.run({"path": {"from": root, "to": downstream[-1]}})
    assert path.get("paths") == [[root, *downstream]]

    with pytest.raises(ValidationError) as caught:
        client.query.run({"start": {"ids": [root]}, "traverse": {"depth": 2}})
    assert ["body", "traverse", "depth"] in [e["loc"] for e in caught.value.errors]


def test_cypher_answers_rows_and_refuses_writes(client: Client, prefix: str) -> None:
    ids = _chain(client, prefix)
    text = "MATCH (a:Asset) WHERE a.id STARTS WITH $prefix RETURN a.id AS id ORDER BY id"
    answer = client.query.cypher(text, {"prefix": prefix})
    assert answer["columns"] == ["id"]
    assert answer["rows"] == [[i] for i in sorted(ids)]
    assert answer["truncated"] is False
    capped = client.query.cypher(text, {"prefix": prefix}, limit=2)
    assert (len(capped["rows"]), capped["truncated"]) == (2, True)

    with pytest.raises(ValidationError) as caught:
        client.query.cypher("MATCH (a:Asset {id: $id}) DETACH DELETE a", {"id": ids[0]})
    assert caught.value.code == "forbidden_query"
    assert client.assets.get(ids[0])["id"] == ids[0]


def test_cypher_needs_the_admin_scope(client: Client, url: str, prefix: str) -> None:
    root, *_ = _chain(client, prefix)
    created = client.tokens.create(f"{prefix}-writer", scopes=["write"], expires_in_days=1)
    try:
        with Client(base_url=url, token=created["token"], max_retries=0) as writer:
            body = {"start": {"ids": [root]}, "traverse": {"direction": "downstream"}}
            counted = writer.query.run({**body, "return": "count"})
            assert counted.get("count") == 3
            with pytest.raises(PermissionDeniedError) as denied:
                writer.query.cypher("RETURN 1 AS one")
            assert (denied.value.status, denied.value.code) == (403, "insufficient_scope")
    finally:
        client.tokens.revoke(created["id"])


@pytest.mark.anyio
async def test_the_async_client_governs_too(url: str, prefix: str, client: Client) -> None:
    root, *downstream = _chain(client, prefix)
    async with AsyncClient(base_url=url) as gov:
        policy = await gov.policies.create(
            f"{prefix} documented", kind="require_description", selector={"id_prefix": prefix}
        )
        try:
            summary = await gov.policies.evaluate()
            assert policy["id"] in [p["policy_id"] for p in summary["policies"]]
            found = gov.policies.iter_violations(policy["id"], limit=2)
            assert [v["asset_id"] async for v in found] == sorted([root, *downstream])
            assert [p["id"] async for p in gov.policies.iter(kind="require_description")]
        finally:
            await gov.policies.delete(policy["id"])

        rule = await gov.quality.create(root, name="rows", type="row_count", params={"min": 1})
        await gov.quality.record_result(rule["id"], "error", message="warehouse down")
        assert (await gov.quality.get(rule["id"]))["status"] == "error"
        assert [r["status"] async for r in gov.quality.iter_results(rule["id"])] == ["error"]
        assert rule["id"] in [r["id"] async for r in gov.quality.iter(asset_id=root)]

        body = {"start": {"ids": [root]}, "traverse": {"direction": "downstream"}, "limit": 2}
        assert [n["id"] async for n in gov.query.iter(body)] == downstream
        assert len([p async for p in gov.query.pages(body)]) == 2
        rows = await gov.query.cypher("MATCH (a:Asset {id: $id}) RETURN a.name", {"id": root})
        assert rows["rows"] == [[root]]
