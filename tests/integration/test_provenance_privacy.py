"""What a public asset's alerts, findings and provenance say of the private assets around
it, over HTTP: a quality alert's downstream owners and ids, a tag inherited from a
private column, a policy finding whose path or reason reaches a private asset, and the
columns listing's provenance. A reader with no role in the private domain reads the raw
bodies (event log, violations, columns, dashboard pages) and finds no id, name, column
or owner of a hidden asset, only `redacted:<n>` stand-ins placed and numbered by what it
can read; a global admin sees everything, and every count is the admin's."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.integration.test_impact_manifest import ORDERS, WAREHOUSE, _send
from tests.integration.test_redacted_reads import edge, project, put_asset
from tests.support.dashboard import make_user, sign_in
from tests.support.server import LiveServer
from tests.support.tokens import token_of

__all__ = ["project"]  # the dbt project fixture, shared with the redacted reads

# `vaultdom` is private (team `vaultkeepers`) and holds every asset whose id starts with
# `vaultasset`. Its ledger has the tagged column `sealedcol` and the owner `ghost@...`.
PRIVATE = "vaultasset.ledger"
PRIVATE_NAME = "Ledger of sealed balances"
SECRETS = ("vaultasset", "vaultdom", PRIVATE_NAME, "sealedcol", "ghost@vault.example")


@dataclass
class Readers:
    outsider: httpx.Client  # a global viewer with no team
    username: str  # the outsider's, for the dashboard


@pytest.fixture
def readers(
    admin: httpx.Client,
    make_settings: Callable[..., Settings],
    client_of: Callable[[str], httpx.Client],
) -> Readers:
    assert admin.put("/teams/vaultkeepers", json={"display_name": "Keepers"}).status_code == 201
    rules = [{"kind": "namespace", "value": "vaultasset"}]
    domain = {"owner_team": "vaultkeepers", "private": True, "rules": rules}
    answer = admin.put("/domains/vaultdom", json=domain)
    assert answer.status_code == 201, answer.text
    outsider = make_user(admin, "outsider", "viewer")
    token = token_of(make_settings(), outsider["id"], "read")
    return Readers(client_of(token), "outsider")


def _asset(admin: httpx.Client, asset_id: str, name: str, **fields: Any) -> None:
    answer = admin.put(f"/assets/{asset_id}", json={"name": name, "type": "table", **fields})
    assert answer.status_code in (200, 201), answer.text


def _map(admin: httpx.Client, source: str, target: str, column: str, into: str) -> None:
    row = {"source": source, "target": target, "columns": [{"source": column, "target": into}]}
    answer = admin.post("/lineage/bulk", json=[row])
    assert answer.status_code == 200, answer.text


def unleaked(answer: httpx.Response) -> Any:
    """The answer's body, asserted to hold nothing of the hidden assets."""
    assert answer.status_code == 200, answer.text
    for secret in SECRETS:
        assert secret not in answer.text, secret
    return answer.json() if answer.headers["content-type"].endswith("json") else answer.text


def _events(client: httpx.Client, types: str) -> httpx.Response:
    return client.get("/events", params={"after": 0, "types": types, "limit": 500})


@pytest.fixture
def tagged(admin: httpx.Client, readers: Readers) -> None:
    """The private ledger's `sealedcol` holds `pii`; the public `open.stage.email` inherits
    it along one identity mapping, `open.stage` is marked public, and `open.feed` flows
    into the ledger, which is marked restricted."""
    columns = [{"name": "sealedcol", "tags": ["pii"]}]
    _asset(admin, PRIVATE, PRIVATE_NAME, tags=["pii", "restricted"], columns=columns)
    _asset(admin, "open.stage", "Stage", tags=["public"], columns=[{"name": "email"}])
    _asset(admin, "open.feed", "Feed")
    assert admin.get(f"/assets/{PRIVATE}").json()["domain"] == "vaultdom"
    _map(admin, PRIVATE, "open.stage", "sealedcol", "email")
    edge(admin, "open.feed", PRIVATE)


def test_a_failing_rules_alert_names_no_owner_or_sort_place_of_a_hidden_asset(
    admin: httpx.Client, readers: Readers, live: LiveServer
) -> None:
    _asset(admin, "open.raw", "Raw")
    _asset(admin, "open.bbb", "Board", owners=["bi@example.com"])
    _asset(admin, "zpublic.board", "Last board", owners=["ops@example.com"])
    _asset(admin, PRIVATE, PRIVATE_NAME, owners=["ghost@vault.example"])
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
    _asset(admin, PRIVATE, PRIVATE_NAME, columns=[{"name": "sealedcol", "tags": []}])
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
    answer = _send(reader, "/impact/manifest", candidate, namespace=WAREHOUSE)
    assert answer.status_code == 200, answer.text
    for secret in ("aa.hidden", "zz.hidden", "zteam@example.com", "ateam@example.com"):
        assert secret not in answer.text, secret
    body = answer.json()
    seen = _send(admin, "/impact/manifest", candidate, namespace=WAREHOUSE).json()
    assert len(body["impacted"]) == len(seen["impacted"]) and body["redacted"] == 2
    nearest = [i for i in body["impacted"] if i["distance"] == 1]
    # readable first, then the stand-ins by team: `ateam`'s asset sorts last by id
    assert [(i["asset"], i.get("team")) for i in nearest if i.get("redacted")] == [
        ("redacted:1", "ateam"),
        ("redacted:2", "zteam"),
    ]
    assert not any(i.get("redacted") for i in nearest[: len(nearest) - 2])
