"""What a public asset's alerts, findings and provenance say of the private assets around
it, over HTTP: a quality alert's downstream owners and ids, a tag inherited from a
private column, a policy finding whose path or reason reaches a private asset, and the
columns listing's provenance. A reader with no role in the private domain reads the raw
bodies (event log, violations, columns, dashboard pages) and finds no id, name, column
or owner of a hidden asset, only `redacted:<n>` stand-ins placed and numbered by what it
can read; a global admin sees everything, and every count is the admin's."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from tests.support.corner_shop import ORDERS, WAREHOUSE, project, send
from tests.support.dashboard import make_user, sign_in
from tests.support.server import LiveServer
from tests.support.vault_ledger import (
    PRIVATE,
    PRIVATE_NAME,
    Readers,
    readers,
    tagged,
    unleaked,
)
from tests.support.writes import edge, put_asset

__all__ = ["project", "readers", "tagged"]  # fixtures, used by name


def _events(client: httpx.Client, types: str) -> httpx.Response:
    return client.get("/events", params={"after": 0, "types": types, "limit": 500})


def test_a_failing_rules_alert_names_no_owner_or_sort_place_of_a_hidden_asset(
    admin: httpx.Client, readers: Readers, live: LiveServer
) -> None:
    put_asset(admin, "open.raw", "Raw")
    put_asset(admin, "open.bbb", "Board", owners=["bi@example.com"])
    put_asset(admin, "zpublic.board", "Last board", owners=["ops@example.com"])
    put_asset(admin, PRIVATE, PRIVATE_NAME, owners=["ghost@vault.example"])
    for target in ("open.bbb", PRIVATE, "zpublic.board"):
        edge(admin, "open.raw", target)
    rule = {"asset_id": "open.raw", "column": "id", "name": "ids", "type": "not_null"}
    made = admin.post("/quality/rules", json=rule)
    assert made.status_code == 201, made.text
    failed = admin.post(f"/quality/rules/{made.json()['id']}/results", json={"status": "fail"})
    assert failed.status_code == 201, failed.text

    (alert,) = unleaked(_events(readers.outsider, "quality.rule.failed"))["items"]
    (seen,) = _events(admin, "quality.rule.failed").json()["items"]
    impact, whole = alert["data"]["impact"], seen["data"]["impact"]
    assert whole["downstream_ids"] == ["open.bbb", PRIVATE, "zpublic.board"]
    assert "ghost@vault.example" in whole["owners"]
    # the stand-in comes last, not where the hidden id sorts; its owner is not named
    assert impact["downstream_ids"] == ["open.bbb", "zpublic.board", "redacted:1"]
    assert impact["owners"] == ["bi@example.com", "ops@example.com"]
    assert impact["downstream_count"] == whole["downstream_count"] == 3
    with sign_in(live, readers.username) as browser:
        for page in ("/", "/events"):
            assert "open.raw" in unleaked(browser.get(page))


def test_a_tag_inherited_from_a_private_column_names_stand_ins_in_its_event(
    admin: httpx.Client, readers: Readers, tagged: None
) -> None:
    body = unleaked(_events(readers.outsider, "column.tag.*"))
    (event,) = [e for e in body["items"] if e["data"]["asset_id"] == "open.stage"]
    assert event["type"] == "column.tag.inherited"
    assert event["data"]["columns"] == [
        {"column": "email", "from": {"asset": "redacted:1", "column": "redacted:1"}}
    ]
    seen = [e for e in _events(admin, "column.tag.*").json()["items"]]
    (whole,) = [e for e in seen if e["data"]["asset_id"] == "open.stage"]
    assert whole["data"]["columns"] == [
        {"column": "email", "from": {"asset": PRIVATE, "column": "sealedcol"}}
    ]
    # the ledger's column untagged, the tag is lost: the event names its source alike
    put_asset(admin, PRIVATE, PRIVATE_NAME, columns=[{"name": "sealedcol", "tags": []}])
    body = unleaked(_events(readers.outsider, "column.tag.lost"))
    (lost,) = [e for e in body["items"] if e["data"]["asset_id"] == "open.stage"]
    assert lost["data"]["columns"] == [
        {"column": "email", "from": {"asset": "redacted:1", "column": "redacted:1"}}
    ]
    assert PRIVATE in _events(admin, "column.tag.lost").text


def _policy(admin: httpx.Client, kind: str, **fields: Any) -> str:
    made = admin.post("/policies", json={"name": kind, "kind": kind, **fields})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_policy_findings_through_a_private_asset_name_only_stand_ins(
    admin: httpx.Client, readers: Readers, tagged: None, live: LiveServer
) -> None:
    policies = {
        "restricted_column_flow": _policy(
            admin, "restricted_column_flow", selector={"tags": ["public"]}, params={"tag": "pii"}
        ),
        "tag_propagation": _policy(
            admin, "tag_propagation", selector={"tags": ["public"]}, params={"tag": "pii"}
        ),
        "restricted_flow": _policy(
            admin, "restricted_flow", params={"to": {"tags": ["restricted"]}}
        ),
    }
    assert admin.post("/policies/evaluate").status_code == 200
    found: dict[str, dict[str, Any]] = {}
    for kind, policy_id in policies.items():
        url = f"/policies/{policy_id}/violations"
        shown = unleaked(readers.outsider.get(url))["violations"]
        whole = admin.get(url).json()["violations"]
        assert [v["asset_id"] for v in shown] == [v["asset_id"] for v in whole]
        assert len(shown) == 1 and PRIVATE in whole[0]["reason"]
        found[kind] = shown[0]
    column = found["restricted_column_flow"]
    assert column["path"] == ["redacted:1#redacted:1", "open.stage#email"]
    assert column["path_assets"] == ["redacted:1", "open.stage"]
    assert column["reason"] == (
        "column email receives pii over 1 mapping(s), none of them masking, "
        "from redacted:1#redacted:1"
    )
    assert (
        found["tag_propagation"]["reason"]
        == "lacks tag pii, carried 1 hop(s) upstream by redacted:1"
    )
    assert found["tag_propagation"]["path"] == ["redacted:1", "open.stage"]
    assert found["restricted_flow"]["reason"] == "flows within 1 hop(s) into redacted:1"
    assert found["restricted_flow"]["path"] == ["open.feed", "redacted:1"]

    # the same findings in the event log: as many alerts as the admin's, none naming it
    shown = unleaked(_events(readers.outsider, "policy.violation.*"))["items"]
    whole = _events(admin, "policy.violation.*").json()["items"]
    assert len(shown) == len(whole) == 3
    assert {e["data"]["reason"] for e in shown} == {v["reason"] for v in found.values()}
    assert any(PRIVATE in e["data"]["reason"] for e in whole)
    with sign_in(live, readers.username) as browser:
        pages = [browser.get(p) for p in ("/policies", "/", "/events", "/assets/open.stage")]
        texts = [unleaked(page) for page in pages]
    assert "receives pii" in texts[0] and "redacted:1" in texts[0]
    assert "redacted:1" in texts[3]
    make_user(admin, "boss", "admin")
    with sign_in(live, "boss") as browser:
        assert PRIVATE in browser.get("/policies").text

    # the ledger deleted, each finding resolves, its path naming an asset no longer there
    assert admin.delete(f"/assets/{PRIVATE}").status_code == 204
    assert admin.post("/policies/evaluate").status_code == 200
    resolved = "policy.violation.resolved"
    shown = unleaked(_events(readers.outsider, resolved))["items"]
    assert len(shown) == len(_events(admin, resolved).json()["items"]) == 3
    assert {e["data"]["reason"] for e in shown} == {v["reason"] for v in found.values()}


def test_column_provenance_through_a_private_asset_shows_stand_ins(
    admin: httpx.Client, readers: Readers, tagged: None, live: LiveServer
) -> None:
    body = unleaked(readers.outsider.get("/assets/open.stage/columns"))
    (email,) = body["columns"]
    (inherited,) = email["inherited"]
    assert inherited["from"] == {"asset": "redacted:1", "column": "redacted:1"}
    assert [(s["asset"], s["column"]) for s in inherited["path"]] == [
        ("redacted:1", "redacted:1"),
        ("open.stage", "email"),
    ]
    whole = admin.get("/assets/open.stage/columns").json()["columns"][0]["inherited"][0]
    assert whole["from"] == {"asset": PRIVATE, "column": "sealedcol"}
    assert len(whole["path"]) == len(inherited["path"])
    with sign_in(live, readers.username) as browser:
        page = unleaked(browser.get("/assets/open.stage"))
    assert "redacted:1.redacted:1" in page and "/assets/redacted" not in page


@pytest.fixture
def hidden_downstream(admin: httpx.Client, project: dict[str, Any]) -> None:
    """Two private domains, each with one asset reading the orders model: `aa.hidden` in
    one owned by `zteam`, `zz.hidden` in one owned by `ateam`, so the ids sort one way
    and the teams the other."""
    for team, domain, asset in (("zteam", "zdom", "aa.hidden"), ("ateam", "adom", "zz.hidden")):
        assert admin.put(f"/teams/{team}", json={}).status_code == 201
        rules = [{"kind": "namespace", "value": asset}]
        body = {"owner_team": team, "private": True, "rules": rules}
        assert admin.put(f"/domains/{domain}", json=body).status_code == 201
        put_asset(admin, asset, f"{asset} name", owners=[f"{team}@example.com"])
        edge(admin, ORDERS, asset)


def test_impact_stand_ins_are_numbered_by_what_the_caller_reads_not_by_hidden_ids(
    project: dict[str, Any], hidden_downstream: None, admin: httpx.Client, reader: httpx.Client
) -> None:
    candidate = copy.deepcopy(project)  # the orders model removed, as nothing reads it
    del candidate["nodes"][ORDERS]
    for node in candidate["nodes"].values():
        if ORDERS in node["depends_on"].get("nodes", []):
            node["depends_on"]["nodes"].remove(ORDERS)
    candidate["nodes"] = {
        k: n for k, n in candidate["nodes"].items() if n.get("attached_node") != ORDERS
    }
    answer = send(reader, "/impact/manifest", candidate, namespace=WAREHOUSE)
    assert answer.status_code == 200, answer.text
    for secret in ("aa.hidden", "zz.hidden", "zteam@example.com", "ateam@example.com"):
        assert secret not in answer.text, secret
    body = answer.json()
    seen = send(admin, "/impact/manifest", candidate, namespace=WAREHOUSE).json()
    assert len(body["impacted"]) == len(seen["impacted"]) and body["redacted"] == 2
    nearest = [i for i in body["impacted"] if i["distance"] == 1]
    # readable first, then the stand-ins by team: `ateam`'s asset sorts last by id
    assert [(i["asset"], i.get("team")) for i in nearest if i.get("redacted")] == [
        ("redacted:1", "ateam"),
        ("redacted:2", "zteam"),
    ]
    assert not any(i.get("redacted") for i in nearest[: len(nearest) - 2])
