"""read_manifest against real manifests written by dbt 1.0 to 1.11 (CONTRACT §4)."""

from __future__ import annotations

import gzip
import json
import time
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from service.domain.dbt_manifest import DbtAsset, ManifestContents, read_manifest

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "dbt"
V4 = "gen_jaffle_shop_v4_dbt1.0.9_duckdb.json"
V7 = "gen_jaffle_shop_v7_dbt1.3.8_duckdb.json"
V12 = "gen_jaffle_shop_v12_dbt1.8.10_duckdb.json"
NEW = "gen_jaffle_shop_new_v12_dbt1.11.16_duckdb.json"
MATTERMOST = "gen_mattermost_analytics_v12_dbt1.11.16_snowflake.json.gz"
LINEAGE_TYPES = {"model", "seed", "snapshot", "source", "exposure"}


def load(name: str) -> Any:
    """A fresh parse, for tests that change the document."""
    raw = (FIXTURES / name).read_bytes()
    return json.loads(gzip.decompress(raw) if name.endswith(".gz") else raw)


@cache
def document(name: str) -> Any:
    return load(name)


@cache
def contents(name: str) -> ManifestContents:
    return read_manifest(document(name))


def assets(name: str) -> dict[str, DbtAsset]:
    return {a.id: a for a in contents(name).assets}


def prefix(uid: str) -> str:
    return uid.split(".", 1)[0]


# README: assets by type, expected edges, tests; plus what this reader adds on top
# (edges into analyses) and leaves out (skipped nodes, unattachable tests).
EXPECTED = {
    V4: ("1.0.9", "v4", "duckdb", {"model": 5, "seed": 3}, 8, 0, 20, 0),
    V7: ("1.3.8", "v7", "duckdb", {"model": 5, "seed": 3}, 8, 0, 20, 0),
    V12: ("1.8.10", "v12", "duckdb", {"model": 5, "seed": 3}, 8, 0, 20, 0),
    NEW: ("1.11.16", "v12", "duckdb", {"model": 13, "source": 6}, 17, 0, 27, 6),
    MATTERMOST: (
        "1.11.16",
        "v12",
        "snowflake",
        {"model": 302, "seed": 7, "analysis": 2, "source": 563, "exposure": 12},
        529,
        15,  # 5 + 10 models read by the two analyses
        459,  # 460 tests; test_validate_email tests a macro on literal values
        5,  # 3 operations, 1 disabled seed, 1 unattachable test
    ),
}
PROJECTS = {V4: "jaffle_shop", V7: "jaffle_shop", V12: "jaffle_shop", NEW: "jaffle_shop"}
PROJECTS[MATTERMOST] = "mattermost_analytics"


@pytest.mark.parametrize("name", list(EXPECTED))
def test_counts_match_the_fixture_readme(name: str) -> None:
    version, schema, adapter, by_type, edges, analysis_edges, rules, skipped = EXPECTED[name]
    got = contents(name)
    assert (got.dbt_version, got.schema_version, got.adapter) == (version, schema, adapter)
    assert got.project == PROJECTS[name]
    assert Counter(a.type for a in got.assets) == by_type
    assert len(got.edges) == edges + analysis_edges
    assert len(got.rules) == rules
    assert got.skipped == skipped


@pytest.mark.parametrize("name", list(EXPECTED))
def test_edges_are_the_parent_map_pairs_between_assets(name: str) -> None:
    parent_map = document(name)["parent_map"]
    expected = {
        (parent, child)
        for child, parents in parent_map.items()
        for parent in parents
        if prefix(parent) in LINEAGE_TYPES and prefix(child) in LINEAGE_TYPES
    }
    got = [(e.source, e.target) for e in contents(name).edges]
    assert len(got) == len(set(got)), "edges are deduplicated"
    lineage = {e for e in got if prefix(e[0]) in LINEAGE_TYPES and prefix(e[1]) in LINEAGE_TYPES}
    assert lineage == expected
    into_analyses = {
        (parent, child)
        for child, parents in parent_map.items()
        if prefix(child) == "analysis"
        for parent in parents
    }
    assert set(got) - lineage == into_analyses


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_edge_and_rule_points_at_an_asset(name: str) -> None:
    got = contents(name)
    ids = [a.id for a in got.assets]
    assert len(ids) == len(set(ids))
    assert all(e.source in ids and e.target in ids and e.source != e.target for e in got.edges)
    assert all(r.asset_id in ids for r in got.rules)
    assert all(prefix(r.id) == "test" for r in got.rules)
    for asset in got.assets:
        assert asset.platform == got.adapter
        assert asset.properties["dbt_project"] == got.project
        assert all(isinstance(v, str | int | float) for v in asset.properties.values())


@pytest.mark.parametrize(
    ("name", "key"),
    [(V4, "compiled_sql"), (V7, "compiled_code"), (V12, "compiled_code"), (NEW, "compiled_code")],
)
def test_transformation_is_the_compiled_sql_of_the_child(name: str, key: str) -> None:
    nodes = document(name)["nodes"]
    for edge in contents(name).edges:
        assert edge.transformation == nodes[edge.target][key]
    assert "{{" not in (contents(name).edges[0].transformation or "")


def test_parse_only_manifest_falls_back_to_raw_code() -> None:
    doc = document(MATTERMOST)
    for edge in contents(MATTERMOST).edges:
        child = doc["exposures"].get(edge.target) or doc["nodes"][edge.target]
        if prefix(edge.target) == "exposure":
            assert edge.transformation is None
        else:
            assert "compiled_code" not in child
            assert edge.transformation == child["raw_code"]


def test_v4_has_no_project_name_and_is_named_by_its_project_id() -> None:
    assert "project_name" not in document(V4)["metadata"]
    assert contents(V4).project == "jaffle_shop"
    assert contents(V4).warnings == ()


def test_the_project_argument_wins() -> None:
    got = read_manifest(document(NEW), project="shop")
    assert got.project == "shop"
    assert {a.properties["dbt_project"] for a in got.assets} == {"shop"}


def test_models_and_seeds_carry_their_properties_and_columns() -> None:
    orders = assets(NEW)["model.jaffle_shop.orders"]
    assert orders.name == "orders"
    assert orders.type == "model"
    assert orders.description is not None
    assert orders.description.startswith("Order overview data mart")
    assert orders.properties == {
        "database": "jaffle",
        "schema": "main",
        "alias": "orders",
        "relation_name": '"jaffle"."main"."orders"',
        "materialized": "table",
        "package_name": "jaffle_shop",
        "original_file_path": "models/marts/orders.sql",
        "access": "protected",
        "dbt_project": "jaffle_shop",
    }
    assert [c.name for c in orders.columns][:3] == ["order_id", "customer_id", "order_total"]
    assert orders.columns[0].description == "The unique key of the orders mart."
    assert orders.columns[0].type is None
    seed = assets(V4)["seed.jaffle_shop.raw_orders"]
    assert seed.properties["materialized"] == "seed"
    assert seed.description is None  # dbt writes "" for "no description"


def test_new_jaffle_shop_skips_disabled_nodes_and_semantic_layer() -> None:
    doc, got = document(NEW), contents(NEW)
    ids = {a.id for a in got.assets}
    assert set(doc["disabled"]) == {f"seed.jaffle_shop.raw_{t}" for t in (
        "customers", "products", "stores", "items", "orders", "supplies")}  # fmt: skip
    assert not ids & set(doc["disabled"])
    for section in ("metrics", "semantic_models", "saved_queries", "unit_tests"):
        assert doc[section]
        assert not ids & set(doc[section])
    assert {prefix(i) for i in ids} == {"model", "source"}


def test_sources_are_named_source_dot_table_and_keep_their_relation() -> None:
    source = assets(NEW)["source.jaffle_shop.ecom.raw_orders"]
    assert source.name == "ecom.raw_orders"
    assert source.type == "source"
    assert source.description is not None
    assert source.properties == {
        "database": "jaffle",
        "schema": "raw",
        "alias": "raw_orders",
        "relation_name": '"jaffle"."raw"."raw_orders"',
        "source_name": "ecom",
        "package_name": "jaffle_shop",
        "original_file_path": "models/staging/__sources.yml",
        "dbt_project": "jaffle_shop",
    }


def test_no_fixture_model_has_an_owner_but_exposures_do() -> None:
    by_id = assets(MATTERMOST)
    assert all(not a.owners for a in by_id.values() if a.type != "exposure")
    # owner.email when set, else owner.name
    assert by_id["exposure.mattermost_analytics.subscription_history"].owners == ("Nick Misasi",)
    release = by_id["exposure.mattermost_analytics.release_quality_dashboard"]
    assert release.owners == ("ioannis.foukarakis@mattermost.com",)
    assert release.tags == ("looker",)
    assert release.properties["exposure_type"] == "dashboard"
    assert release.properties["url"] == "https://mattermost.looker.com/dashboards/410"
    assert "materialized" not in release.properties


def test_mattermost_maps_ephemeral_models_analyses_and_package_models() -> None:
    got = assets(MATTERMOST)
    materialized = Counter(
        a.properties.get("materialized") for a in got.values() if a.type == "model"
    )
    assert materialized["ephemeral"] == 35
    analysis = got["analysis.mattermost_analytics.active_user_base"]
    assert "materialized" not in analysis.properties
    packages = Counter(a.properties["package_name"] for a in got.values())
    assert set(packages) == {"mattermost_analytics", "dbt_project_evaluator"}
    assert "seed.dbt_project_evaluator.dbt_project_evaluator_exceptions" not in got
    warnings = contents(MATTERMOST).warnings
    assert warnings == (
        "test test.mattermost_analytics.test_validate_email: "
        "cannot tell which asset it tests; skipped",
    )


def rule(name: str, rule_id: str) -> Any:
    return next(r for r in contents(name).rules if r.id == rule_id)


@pytest.mark.parametrize("name", [V4, V7, V12, NEW, MATTERMOST])
def test_generic_tests_map_to_their_rule_type_and_column(name: str) -> None:
    nodes = document(name)["nodes"]
    for r in contents(name).rules:
        node = nodes[r.id]
        meta = node.get("test_metadata")
        assert r.name == node["name"]
        if meta is None:
            assert r.type == "custom"
            assert r.params["test_name"] == node["name"]
            continue
        if meta["name"] in ("not_null", "unique", "accepted_values", "relationships"):
            assert r.type == meta["name"]
            assert "test_name" not in r.params
        else:
            assert r.type == "custom"
        assert r.column == meta["kwargs"].get("column_name")
        assert "model" not in r.params
        assert "column_name" not in r.params
        if node.get("attached_node"):
            assert r.asset_id == node["attached_node"]


def test_v4_tests_without_attached_node_are_attached_through_their_model_kwarg() -> None:
    assert all("attached_node" not in n for n in document(V4)["nodes"].values())
    relationships = [r for r in contents(V4).rules if r.type == "relationships"]
    assert len(relationships) == 1
    (r,) = relationships
    assert r.asset_id == "model.jaffle_shop.orders"  # not the `to` side, customers
    assert r.column == "customer_id"
    assert r.params == {
        "to": "ref('customers')",
        "field": "customer_id",
        "to_asset_id": "model.jaffle_shop.customers",
    }
    assert r.severity == "error"
    by_asset = Counter(r.asset_id for r in contents(V4).rules)
    assert by_asset == Counter(r.asset_id for r in contents(V12).rules)


def test_accepted_values_keep_their_values() -> None:
    r = rule(
        V4,
        "test.jaffle_shop.accepted_values_orders_status__placed__shipped__completed__return_pending__returned.be6b5b5ec3",
    )
    assert (r.asset_id, r.column, r.type) == (
        "model.jaffle_shop.orders",
        "status",
        "accepted_values",
    )
    assert r.params == {"values": ["placed", "shipped", "completed", "return_pending", "returned"]}
    nulls = rule(
        MATTERMOST,
        "test.mattermost_analytics.source_accepted_values_mattermost2_server_edition__true__false__None.750b6fce6c",
    )
    assert nulls.asset_id == "source.mattermost_analytics.mattermost2.server"
    assert nulls.params == {"values": ["true", "false", None]}


def test_source_tests_attach_to_the_source_not_the_relationship_target() -> None:
    r = rule(
        MATTERMOST,
        "test.mattermost_analytics.source_relationships_cws_trialrequestlicenses_licenseid__id__source_cws_license_.f88568ecda",
    )
    assert document(MATTERMOST)["nodes"][r.id]["attached_node"] is None
    assert r.asset_id == "source.mattermost_analytics.cws.trialrequestlicenses"
    assert r.column == "licenseid"
    assert r.params == {
        "to": "source('cws', 'license')",
        "field": "id",
        "to_asset_id": "source.mattermost_analytics.cws.license",
    }


def test_custom_tests_name_their_generic_test_and_keep_arguments() -> None:
    r = rule(
        NEW,
        "test.jaffle_shop.dbt_utils_expression_is_true_orders_order_total_subtotal_tax_paid.2aba85df92",
    )
    assert (r.type, r.asset_id, r.column) == ("custom", "model.jaffle_shop.orders", None)
    assert r.params == {
        "expression": "order_total = subtotal + tax_paid",
        "test_name": "dbt_utils.expression_is_true",
    }
    combo = [
        r
        for r in contents(MATTERMOST).rules
        if r.params.get("test_name") == "dbt_utils.unique_combination_of_columns"
    ]
    assert len(combo) == 12
    assert all(isinstance(r.params["combination_of_columns"], list) for r in combo)


def test_singular_tests_attach_to_their_first_dependency_and_list_the_rest() -> None:
    r = rule(MATTERMOST, "test.mattermost_analytics.test_tracks__all_actions_are_known")
    assert r.type == "custom"
    assert r.asset_id == "model.mattermost_analytics.stg_incident_response_prod__tracks"
    assert r.column is None
    assert r.params == {
        "test_name": "test_tracks__all_actions_are_known",
        "depends_on": [
            "model.mattermost_analytics.stg_incident_response_prod__tracks",
            "seed.mattermost_analytics.playbooks_tracking_plan",
        ],
    }
    single = rule(MATTERMOST, "test.mattermost_analytics.test_trial_requests")
    assert single.asset_id == "source.mattermost_analytics.cws.trial_requests"
    assert single.params == {"test_name": "test_trial_requests"}


def test_severity_is_lower_cased() -> None:
    nodes = document(MATTERMOST)["nodes"]
    severities = Counter(r.severity for r in contents(MATTERMOST).rules)
    assert severities == {"error": 424, "warn": 35}
    for r in contents(MATTERMOST).rules:
        assert r.severity == nodes[r.id]["config"]["severity"].lower()


def test_rule_params_are_copies_and_json_safe() -> None:
    doc = load(MATTERMOST)
    got = read_manifest(doc)
    for r in got.rules:
        json.dumps(r.params, allow_nan=False)
    accepted = next(r for r in got.rules if r.type == "accepted_values")
    accepted.params["values"].append("changed")
    assert "changed" not in doc["nodes"][accepted.id]["test_metadata"]["kwargs"]["values"]


@pytest.mark.parametrize("name", [V4, NEW])
def test_the_document_is_not_modified(name: str) -> None:
    doc = load(name)
    before = json.dumps(doc, sort_keys=True)
    read_manifest(doc)
    assert json.dumps(doc, sort_keys=True) == before


def test_the_largest_manifest_reads_well_under_a_second() -> None:
    doc = document(MATTERMOST)
    best = min(_timed(doc) for _ in range(3))
    assert best < 0.5, f"{best:.3f}s"


def _timed(doc: Any) -> float:
    start = time.perf_counter()
    read_manifest(doc)
    return time.perf_counter() - start
