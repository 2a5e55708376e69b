"""Column classification: tags set on an asset's columns are inherited downstream along
column lineage, stopped by masking, aggregation and indirect mappings, each inherited tag
with the path that brought it; kinds read from the API, OpenLineage facets, SQL and
dbt; recomputed when tags or mappings change, and announced."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any
from urllib.parse import quote

import httpx

from tests.support.columns import put_with_columns
from tests.support.dbt_fixtures import NEWEST, manifest

PG = "postgres://db:5432"


def _map(client: httpx.Client, source: str, target: str, *columns: dict[str, Any]) -> None:
    response = client.post(
        "/lineage/bulk", json=[{"source": source, "target": target, "columns": list(columns)}]
    )
    assert response.status_code == 200, response.text


def _columns(client: httpx.Client, asset_id: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/assets/{quote(asset_id, safe='')}/columns")
    assert response.status_code == 200, response.text
    return {c["name"]: c for c in response.json()["columns"]}


def _inherited(client: httpx.Client, asset_id: str) -> dict[str, set[str]]:
    return {
        name: {i["tag"] for i in column["inherited"]}
        for name, column in _columns(client, asset_id).items()
    }


def _events(client: httpx.Client, types: str) -> list[dict[str, Any]]:
    response = client.get("/events", params={"types": types, "limit": 500})
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def test_a_tag_follows_identity_and_transformation_and_stops_at_masking_and_aggregation(
    writer: httpx.Client,
) -> None:
    put_with_columns(writer, "raw.users", {"email": ["pii"], "id": []})
    _map(
        writer,
        "raw.users",
        "stg.users",
        {"source": "email", "target": "email"},  # no transformation: unknown, carries
        {"source": "email", "target": "email_upper", "transformation": "upper(email)"},
        {"source": "email", "target": "email_hash", "transformation": "md5(email)"},
        {"source": "email", "target": "email_sha", "transformation": "SHA2(email, 256)"},
        {"source": "email", "target": "emails", "transformation": "count(distinct email)"},
        {"source": "email", "target": "masked", "kind": "masking"},
        {"source": "email", "target": "joined_on", "transformation": "INDIRECT/JOIN"},
        {"source": "email", "target": "copied", "transformation": "DIRECT/IDENTITY"},
    )
    _map(writer, "stg.users", "mart.users", {"source": "email_upper", "target": "contact"})
    _map(writer, "stg.users", "mart.users", {"source": "email_hash", "target": "hashed"})

    stg = _inherited(writer, "stg.users")
    assert stg == {"email": {"pii"}, "email_upper": {"pii"}, "copied": {"pii"}}
    mart = _columns(writer, "mart.users")
    assert set(mart) == {"contact"}
    [inherited] = mart["contact"]["inherited"]
    assert inherited == {
        "tag": "pii",
        "from": {"asset": "raw.users", "column": "email"},
        "path": [
            {"asset": "raw.users", "column": "email", "kind": None},
            {"asset": "stg.users", "column": "email_upper", "kind": "transformation"},
            {"asset": "mart.users", "column": "contact", "kind": "unknown"},
        ],
    }
    raw = _columns(writer, "raw.users")
    assert raw["email"] == {"name": "email", "type": None, "tags": ["pii"], "inherited": []}
    assert raw["id"]["tags"] == [] and raw["id"]["inherited"] == []


def test_the_path_is_the_fewest_mappings_from_the_nearest_tagged_column(
    writer: httpx.Client,
) -> None:
    put_with_columns(writer, "a", {"x": ["pii"]})
    put_with_columns(writer, "far", {"y": ["pii"]})
    _map(writer, "a", "b", {"source": "x", "target": "x"})
    _map(writer, "b", "c", {"source": "x", "target": "x"})
    _map(writer, "c", "d", {"source": "x", "target": "x"})
    _map(writer, "a", "d", {"source": "x", "target": "x", "kind": "transformation"})
    _map(writer, "far", "d", {"source": "y", "target": "x"})
    [inherited] = _columns(writer, "d")["x"]["inherited"]
    # a.x and far.y are both one hop away: the tie goes to the source key's order.
    assert [(s["asset"], s["column"]) for s in inherited["path"]] == [("a", "x"), ("d", "x")]
    # A cycle terminates and changes nothing.
    _map(writer, "d", "a", {"source": "x", "target": "x"})
    assert _inherited(writer, "a") == {"x": set()}
    assert _inherited(writer, "c") == {"x": {"pii"}}


def test_untagging_removes_what_was_inherited_and_retagging_restores_it(
    writer: httpx.Client,
) -> None:
    put_with_columns(writer, "src", {"email": ["pii", "gdpr"]})
    _map(writer, "src", "mid", {"source": "email", "target": "email"})
    _map(writer, "mid", "out", {"source": "email", "target": "contact"})
    assert _inherited(writer, "out") == {"contact": {"pii", "gdpr"}}

    put_with_columns(writer, "src", {"email": ["gdpr"]})
    assert _inherited(writer, "out") == {"contact": {"gdpr"}}
    lost = _events(writer, "column.tag.lost")
    assert {(e["data"]["asset_id"], e["data"]["tag"]) for e in lost} == {
        ("mid", "pii"),
        ("out", "pii"),
    }
    gained = _events(writer, "column.tag.inherited")
    out_pii = [e["data"] for e in gained if e["data"]["asset_id"] == "out"]
    assert {d["tag"] for d in out_pii} == {"pii", "gdpr"}
    assert out_pii[0]["columns"] == [
        {"column": "contact", "from": {"asset": "src", "column": "email"}}
    ]

    writer.delete("/assets/src")
    assert _inherited(writer, "out") == {}


def test_a_mapping_rewritten_as_masking_stops_the_tag_downstream(writer: httpx.Client) -> None:
    put_with_columns(writer, "s", {"card": ["pci"]})
    _map(writer, "s", "t", {"source": "card", "target": "card", "transformation": "card"})
    _map(writer, "t", "u", {"source": "card", "target": "card"})
    assert _inherited(writer, "u") == {"card": {"pci"}}

    _map(writer, "s", "t", {"source": "card", "target": "card", "transformation": "md5(card)"})
    assert _inherited(writer, "t") == {}
    assert _inherited(writer, "u") == {}
    lost = {(e["data"]["asset_id"], e["data"]["tag"]) for e in _events(writer, "column.tag.lost")}
    assert lost == {("t", "pci"), ("u", "pci")}

    deleted = writer.delete("/lineage/edges", params={"source": "s", "target": "t"})
    assert deleted.status_code == 204, deleted.text
    _map(writer, "s", "t", {"source": "card", "target": "card"})
    assert _inherited(writer, "u") == {"card": {"pci"}}
    writer.delete("/lineage/edges", params={"source": "s", "target": "t"})
    assert _inherited(writer, "u") == {}


def _ol_event(fields: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-27T10:00:00Z",
        "producer": "https://example.com/producer",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4())},
        "job": {"namespace": "airflow", "name": "users_job"},
        "inputs": [{"namespace": PG, "name": "shop.public.users"}],
        "outputs": [
            {
                "namespace": PG,
                "name": "shop.public.users_out",
                "facets": {
                    "columnLineage": {
                        "_producer": "https://example.com/producer",
                        "_schemaURL": "https://openlineage.io/spec/facets/1-2-0/"
                        "ColumnLineageDatasetFacet.json",
                        "fields": {
                            column: {
                                "inputFields": [
                                    {
                                        "namespace": PG,
                                        "name": "shop.public.users",
                                        "field": "email",
                                        "transformations": transformations,
                                    }
                                ]
                            }
                            for column, transformations in fields.items()
                        },
                    }
                },
            }
        ],
    }


def test_openlineage_transformation_types_and_the_masking_flag_decide(
    writer: httpx.Client,
) -> None:
    dataset = {"namespace": PG, "name": "shop.public.users"}
    put_with_columns(writer, "users", {"email": ["pii"]}, dataset=dataset)
    event = _ol_event(
        {
            "same": [{"type": "DIRECT", "subtype": "IDENTITY"}],
            "lower": [{"type": "DIRECT", "subtype": "TRANSFORMATION"}],
            "hidden": [{"type": "DIRECT", "subtype": "TRANSFORMATION", "masking": True}],
            "counted": [{"type": "DIRECT", "subtype": "AGGREGATION"}],
            "filtered": [{"type": "INDIRECT", "subtype": "FILTER"}],
            "both": [
                {"type": "INDIRECT", "subtype": "JOIN"},
                {"type": "DIRECT", "subtype": "IDENTITY"},
            ],
        }
    )
    response = writer.post("/lineage/openlineage", json=event)
    assert response.status_code == 200, response.text
    out = f"{PG}/shop.public.users_out"
    assert _inherited(writer, out) == {"same": {"pii"}, "lower": {"pii"}, "both": {"pii"}}
    path = _columns(writer, out)["same"]["inherited"][0]["path"]
    assert [s["kind"] for s in path] == [None, "identity"]


def test_sql_expressions_are_classified_per_source_column(writer: httpx.Client) -> None:
    put_with_columns(
        writer,
        "users",
        {"email": ["pii"], "name": ["pii"], "country": []},
        dataset={"namespace": PG, "name": "shop.public.users"},
    )
    sql = (
        "create table public.report as select email, md5(email) as email_md5, "
        "sha2(name, 256) as name_sha, concat(md5(email), name) as mixed, "
        "count(*) as n, count(email) as emails, max(name) as a_name, upper(country) as c "
        "from public.users group by email"
    )
    response = writer.post(
        "/lineage/sql",
        json={
            "sql": sql,
            "dialect": "postgres",
            "namespace": PG,
            "default_database": "shop",
            "source": "test",
        },
    )
    assert response.status_code == 200, response.text
    report = _columns(writer, f"{PG}/shop.public.report")
    mixed = report.pop("mixed")
    assert {name: {i["tag"] for i in c["inherited"]} for name, c in report.items()} == {
        "email": {"pii"},
        "a_name": {"pii"},
    }
    # concat(md5(email), name): the email is masked, the name is not.
    [held] = mixed["inherited"]
    assert held["from"] == {"asset": "users", "column": "name"}
    assert held["path"][-1]["kind"] == "transformation"


def test_an_unknown_asset_is_404_and_a_bad_kind_is_422_writing_nothing(
    writer: httpx.Client,
) -> None:
    missing = writer.get("/assets/nope/columns")
    assert missing.status_code == 404
    assert missing.json()["code"] == "asset_not_found"
    bad = writer.post(
        "/lineage/bulk",
        json=[
            {
                "source": "a",
                "target": "b",
                "columns": [{"source": "x", "target": "y", "kind": "hashed"}],
            }
        ],
    )
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["loc"][-1] == "kind"
    assert writer.get("/lineage/edges").json()["items"] == []


def test_a_restricted_column_flow_names_the_unmasked_path_and_resolves_when_masked(
    writer: httpx.Client,
) -> None:
    put_with_columns(writer, "crm.users", {"email": ["pii"]})
    put_with_columns(writer, "dash.public", {"contact": [], "hashed": []}, tags=["public"])
    put_with_columns(writer, "dash.internal", {"contact": []})
    _map(writer, "crm.users", "stg.users", {"source": "email", "target": "email"})
    _map(writer, "stg.users", "dash.public", {"source": "email", "target": "contact"})
    _map(
        writer,
        "stg.users",
        "dash.public",
        {"source": "email", "target": "hashed", "kind": "masking"},
    )
    _map(writer, "stg.users", "dash.internal", {"source": "email", "target": "contact"})
    created = writer.post(
        "/policies",
        json={
            "name": "no pii on public dashboards",
            "kind": "restricted_column_flow",
            "selector": {"tags": ["public"]},
            "params": {"tag": "PII"},
        },
    )
    assert created.status_code == 201, created.text
    policy = created.json()
    assert writer.post("/policies/evaluate").status_code == 200
    answer = writer.get(f"/policies/{policy['id']}/violations").json()
    [violation] = answer["violations"]
    assert violation["asset_id"] == "dash.public"
    assert violation["path"] == ["crm.users#email", "stg.users#email", "dash.public#contact"]
    assert violation["reason"].startswith("column contact receives pii over ")
    assert violation["reason"].endswith(" from crm.users#email")
    assert violation["path_assets"] == ["crm.users", "stg.users", "dash.public"]
    assert violation["far_end"] == "crm.users#email"

    _map(
        writer,
        "stg.users",
        "dash.public",
        {"source": "email", "target": "contact", "transformation": "md5(email)"},
    )
    assert writer.post("/policies/evaluate").status_code == 200
    assert writer.get(f"/policies/{policy['id']}/violations").json()["violations"] == []
    alerts = _events(writer, "policy.violation.*")
    assert [(e["type"], e["data"]["asset_id"]) for e in alerts] == [
        ("policy.violation.opened", "dash.public"),
        ("policy.violation.resolved", "dash.public"),
    ]


def test_a_tag_rule_of_its_own_recomputes_everywhere_and_bad_rules_are_422(
    writer: httpx.Client, reader: httpx.Client
) -> None:
    put_with_columns(writer, "sales", {"amount": ["confidential"]})
    _map(
        writer,
        "sales",
        "totals",
        {"source": "amount", "target": "total", "transformation": "sum(amount)"},
        {"source": "amount", "target": "amount", "kind": "identity"},
    )
    assert _inherited(writer, "totals") == {"amount": {"confidential"}}
    assert reader.get("/column-tags/Confidential").json() == {
        "tag": "confidential",
        "stops": ["masking", "aggregation", "indirect"],
        "default": True,
        "updated_at": None,
    }

    rule = writer.put("/column-tags/confidential", json={"stops": ["identity", "masking"]})
    assert rule.status_code == 200, rule.text
    assert rule.json()["stops"] == ["identity", "masking"] and rule.json()["default"] is False
    assert _inherited(writer, "totals") == {"total": {"confidential"}}
    assert reader.put("/column-tags/confidential", json={"stops": []}).status_code == 403

    for body, field in (({"stops": ["hashed"]}, "stops"), ({"stop": []}, "stop")):
        bad = writer.put("/column-tags/confidential", json=body)
        assert bad.status_code == 422, bad.text
        assert any(field in error["loc"] for error in bad.json()["errors"])
    too_long = writer.get("/column-tags/" + "t" * 65)
    assert too_long.status_code == 422
    assert writer.get("/column-tags/confidential").json()["stops"] == ["identity", "masking"]


def test_dbt_column_tags_follow_the_compiled_sql_through_ctes(writer: httpx.Client) -> None:
    document = copy.deepcopy(manifest(NEWEST))
    staged = document["nodes"]["model.corner_shop.stg_orders"]["columns"]
    staged["order_id"]["tags"] = ["sensitive"]
    staged["order_date"]["tags"] = ["sensitive"]
    response = writer.post(
        "/lineage/manifest",
        content=json.dumps(document),
        headers={"content-type": "application/json"},
        timeout=300,
    )
    assert response.status_code == 200, response.text
    customers = _columns(writer, "model.corner_shop.customers")
    # min(order_date) in a CTE is one of the dates; count(order_id) in a CTE, wrapped
    # in coalesce outside it, is still a count.
    inherited = {name: [i["tag"] for i in c["inherited"]] for name, c in customers.items()}
    assert inherited["first_order"] == ["sensitive"]
    assert inherited["number_of_orders"] == []
    [first] = customers["first_order"]["inherited"]
    assert first["path"] == [
        {"asset": "model.corner_shop.stg_orders", "column": "order_date", "kind": None},
        {"asset": "model.corner_shop.customers", "column": "first_order", "kind": "transformation"},
    ]
    orders = _inherited(writer, "model.corner_shop.orders")
    assert orders.get("order_id") == {"sensitive"}
