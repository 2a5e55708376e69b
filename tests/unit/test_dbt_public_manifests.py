"""read_manifest on public dbt projects' manifests (jaffle_shop, mattermost analytics): what
only their size and their exact shapes can show. Runs where those manifests are present
(see tests/support/dbt_fixtures.py); the behaviour itself is tested on our own
manifests in test_dbt_manifest.py."""

from __future__ import annotations

from collections import Counter

from tests.support.dbt_fixtures import prefix, public_manifests
from tests.support.dbt_read import (
    JAFFLE_NEW,
    JAFFLE_V4,
    JAFFLE_V12,
    MATTERMOST,
    assets,
    contents,
    document,
    rule,
)

pytestmark = public_manifests


def test_v4_has_no_project_name_and_is_named_by_its_project_id() -> None:
    assert "project_name" not in document(JAFFLE_V4)["metadata"]
    assert contents(JAFFLE_V4).project == "jaffle_shop"
    assert contents(JAFFLE_V4).warnings == ()


def test_new_jaffle_shop_models_sources_and_skipped_sections() -> None:
    orders = assets(JAFFLE_NEW)["model.jaffle_shop.orders"]
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
    source = assets(JAFFLE_NEW)["source.jaffle_shop.ecom.raw_orders"]
    assert source.name == "ecom.raw_orders"
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
    doc, ids = document(JAFFLE_NEW), set(assets(JAFFLE_NEW))
    assert set(doc["disabled"]) == {f"seed.jaffle_shop.raw_{t}" for t in (
        "customers", "products", "stores", "items", "orders", "supplies")}  # fmt: skip
    assert {prefix(i) for i in ids} == {"model", "source"}


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
    assert contents(MATTERMOST).warnings == (
        "test test.mattermost_analytics.test_validate_email: "
        "cannot tell which asset it tests; skipped",
    )


def test_jaffle_tests_without_attached_node_attach_like_the_newer_manifest() -> None:
    assert all("attached_node" not in n for n in document(JAFFLE_V4)["nodes"].values())
    (r,) = [r for r in contents(JAFFLE_V4).rules if r.type == "relationships"]
    assert r.asset_id == "model.jaffle_shop.orders"  # not the `to` side, customers
    assert r.params["to_asset_id"] == "model.jaffle_shop.customers"
    by_asset = Counter(r.asset_id for r in contents(JAFFLE_V4).rules)
    assert by_asset == Counter(r.asset_id for r in contents(JAFFLE_V12).rules)


def test_mattermost_tests_keep_null_values_source_targets_and_lists() -> None:
    nulls = rule(
        MATTERMOST,
        "test.mattermost_analytics.source_accepted_values_mattermost2_server_edition__true__false__None.750b6fce6c",
    )
    assert nulls.asset_id == "source.mattermost_analytics.mattermost2.server"
    assert nulls.params == {"values": ["true", "false", None]}
    r = rule(
        MATTERMOST,
        "test.mattermost_analytics.source_relationships_cws_trialrequestlicenses_licenseid__id__source_cws_license_.f88568ecda",
    )
    assert r.asset_id == "source.mattermost_analytics.cws.trialrequestlicenses"
    assert r.params["to_asset_id"] == "source.mattermost_analytics.cws.license"
    combo = [
        r
        for r in contents(MATTERMOST).rules
        if r.params.get("test_name") == "dbt_utils.unique_combination_of_columns"
    ]
    assert len(combo) == 12
    assert all(isinstance(r.params["combination_of_columns"], list) for r in combo)
    dbt_utils = rule(
        JAFFLE_NEW,
        "test.jaffle_shop.dbt_utils_expression_is_true_orders_order_total_subtotal_tax_paid.2aba85df92",
    )
    assert dbt_utils.params["test_name"] == "dbt_utils.expression_is_true"


def test_mattermost_singular_tests_and_severities() -> None:
    r = rule(MATTERMOST, "test.mattermost_analytics.test_tracks__all_actions_are_known")
    assert r.asset_id == "model.mattermost_analytics.stg_incident_response_prod__tracks"
    assert r.params["depends_on"] == [
        "model.mattermost_analytics.stg_incident_response_prod__tracks",
        "seed.mattermost_analytics.playbooks_tracking_plan",
    ]
    severities = Counter(r.severity for r in contents(MATTERMOST).rules)
    assert severities == {"error": 424, "warn": 35}
