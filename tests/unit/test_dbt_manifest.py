"""read_manifest against real manifests written by dbt itself: our own project built by
dbt 1.0 to 1.11 (every manifest schema from v4 to v12, tests/fixtures/dbt_versions) and,
when they are beside the checkout, public projects' manifests.

Expected values come from each manifest's own `parent_map`, `nodes` and `config`, or
from the fixture README's table, never from the code under test."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from service.domain.dbt_manifest import read_manifest
from tests.support.dbt_fixtures import (
    LINEAGE_TYPES,
    NEWEST,
    PARSE_ONLY,
    PROJECT,
    RELEASES,
    SCHEMAS,
    lineage_pairs,
    prefix,
    public_manifests,
)
from tests.support.dbt_read import (
    JAFFLE_NEW,
    JAFFLE_V4,
    JAFFLE_V7,
    JAFFLE_V12,
    MATTERMOST,
    OURS,
    PUBLIC_NAMES,
    assets,
    contents,
    document,
    fresh,
    rule,
)

UNTESTABLE = (
    f"test test.{PROJECT}.assert_arithmetic_still_works: cannot tell which asset it tests; skipped"
)


def with_public(*ours: str, names: tuple[str, ...] = PUBLIC_NAMES) -> list[Any]:
    """Our manifests, then public ones, which are skipped when they are not there."""
    return [*ours, *(pytest.param(name, marks=public_manifests) for name in names)]


# The fixture READMEs: assets by type, expected edges, tests turned into rules, entries
# skipped; plus what this reader adds on top of the parent_map lineage (edges into
# analyses). Ours skip 3 hook operations, a disabled seed and model, and the one
# singular test that reads no model.
SMALL = {"model": 8, "seed": 3, "snapshot": 1, "analysis": 1, "source": 2, "exposure": 2}
GROWN = SMALL | {"model": 10}  # dbt 1.5+: the two versions of dim_stores
WITH_TIME_SPINE = SMALL | {"model": 11}  # dbt 1.6+: the semantic layer's time spine
OURS_EXPECTED = {
    "v4": (SMALL, 16, 2, 35, 6),
    "v5": (SMALL, 16, 2, 35, 6),
    "v6": (SMALL, 16, 2, 35, 6),
    "v7": (SMALL, 16, 2, 35, 6),
    "v8": (SMALL, 16, 2, 35, 6),
    "v9": (GROWN, 18, 2, 39, 6),
    "v10": (WITH_TIME_SPINE, 18, 2, 39, 6),
    "v11": (WITH_TIME_SPINE, 18, 2, 39, 6),
    "v12": (WITH_TIME_SPINE, 18, 2, 39, 6),
}
EXPECTED = {
    **{s: (RELEASES[s], s, "duckdb", *row) for s, row in OURS_EXPECTED.items()},
    PARSE_ONLY: (RELEASES[NEWEST], NEWEST, "duckdb", *OURS_EXPECTED[NEWEST]),
    JAFFLE_V4: ("1.0.9", "v4", "duckdb", {"model": 5, "seed": 3}, 8, 0, 20, 0),
    JAFFLE_V7: ("1.3.8", "v7", "duckdb", {"model": 5, "seed": 3}, 8, 0, 20, 0),
    JAFFLE_V12: ("1.8.10", "v12", "duckdb", {"model": 5, "seed": 3}, 8, 0, 20, 0),
    JAFFLE_NEW: ("1.11.16", "v12", "duckdb", {"model": 13, "source": 6}, 17, 0, 27, 6),
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
PROJECTS = {JAFFLE_NEW: "jaffle_shop", JAFFLE_V4: "jaffle_shop", JAFFLE_V7: "jaffle_shop"}
PROJECTS |= {JAFFLE_V12: "jaffle_shop", MATTERMOST: "mattermost_analytics"}


@pytest.mark.parametrize("name", with_public(*OURS))
def test_counts_match_the_fixture_readme(name: str) -> None:
    version, schema, adapter, by_type, edges, analysis_edges, rules, skipped = EXPECTED[name]
    got = contents(name)
    assert (got.dbt_version, got.schema_version, got.adapter) == (version, schema, adapter)
    assert got.project == PROJECTS.get(name, PROJECT)
    assert Counter(a.type for a in got.assets) == by_type
    assert len(got.edges) == edges + analysis_edges
    assert len(got.rules) == rules
    assert got.skipped == skipped


@pytest.mark.parametrize("name", with_public(*OURS))
def test_edges_are_the_parent_map_pairs_between_assets(name: str) -> None:
    parent_map = document(name)["parent_map"]
    got = [(e.source, e.target) for e in contents(name).edges]
    assert len(got) == len(set(got)), "edges are deduplicated"
    lineage = {e for e in got if prefix(e[0]) in LINEAGE_TYPES and prefix(e[1]) in LINEAGE_TYPES}
    assert lineage == lineage_pairs(document(name))
    into_analyses = {
        (parent, child)
        for child, parents in parent_map.items()
        if prefix(child) == "analysis"
        for parent in parents
    }
    assert set(got) - lineage == into_analyses


@pytest.mark.parametrize("name", with_public(*OURS))
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


COMPILED_KEY = {s: "compiled_sql" if s in ("v4", "v5", "v6") else "compiled_code" for s in SCHEMAS}


@pytest.mark.parametrize(
    ("name", "key"),
    [
        *COMPILED_KEY.items(),
        *(
            pytest.param(n, k, marks=public_manifests)
            for n, k in [
                (JAFFLE_V4, "compiled_sql"),
                (JAFFLE_V7, "compiled_code"),
                (JAFFLE_V12, "compiled_code"),
                (JAFFLE_NEW, "compiled_code"),
            ]
        ),
    ],
)
def test_transformation_is_the_compiled_sql_of_the_child(name: str, key: str) -> None:
    nodes = document(name)["nodes"]
    edges = contents(name).edges
    for edge in edges:
        if prefix(edge.target) == "exposure":
            assert edge.transformation is None
        else:
            assert edge.transformation == nodes[edge.target][key]
    assert all("{{" not in (e.transformation or "") for e in edges)


@pytest.mark.parametrize("name", with_public(PARSE_ONLY, names=(MATTERMOST,)))
def test_parse_only_manifest_falls_back_to_raw_code(name: str) -> None:
    doc = document(name)
    for edge in contents(name).edges:
        if prefix(edge.target) == "exposure":
            assert edge.transformation is None
        else:
            child = doc["nodes"][edge.target]
            assert "compiled_code" not in child
            assert edge.transformation == child["raw_code"]


@pytest.mark.parametrize("schema", ["v4", "v5", "v6", "v7", "v8", "v9"])
def test_manifests_before_dbt_1_6_are_named_by_their_project_id(schema: str) -> None:
    assert "project_name" not in document(schema)["metadata"]
    assert contents(schema).project == PROJECT
    assert contents(schema).warnings == (UNTESTABLE,)  # nothing about the project's name


def test_the_project_argument_wins() -> None:
    got = read_manifest(document(NEWEST), project="shop")
    assert got.project == "shop"
    assert {a.properties["dbt_project"] for a in got.assets} == {"shop"}


def test_models_and_seeds_carry_their_properties_and_columns() -> None:
    orders = assets(NEWEST)["model.corner_shop.orders"]
    assert orders.name == "orders"
    assert orders.type == "model"
    assert orders.description == "One row per order, with what was paid by each method and where."
    assert orders.properties == {
        "database": "corner_shop",
        "schema": "main_marts",
        "alias": "orders",
        "relation_name": '"corner_shop"."main_marts"."orders"',
        "materialized": "table",
        "package_name": "corner_shop",
        "original_file_path": "models/marts/orders.sql",
        "access": "protected",
        "dbt_project": "corner_shop",
    }
    assert [c.name for c in orders.columns] == ["order_id", "customer_id", "status", "amount"]
    assert orders.columns[0].description == "Primary key of the order."
    assert orders.columns[1].description is None  # documented without a description
    for schema in ("v4", NEWEST):
        staged = assets(schema)["model.corner_shop.stg_customers"]
        assert [(c.name, c.type, c.tags) for c in staged.columns] == [
            ("customer_id", "integer", ("primary-key",)),
            ("first_name", None, ()),
            ("last_name", None, ()),
            ("email", None, ("pii",)),
        ]
    seed = assets("v4")["seed.corner_shop.raw_orders"]
    assert seed.properties["materialized"] == "seed"
    assert seed.properties["relation_name"] == '"main"."main_raw"."raw_orders"'  # dbt-duckdb 1.0
    assert seed.description is None  # dbt writes "" for "no description"


def test_ephemeral_models_analyses_snapshots_and_package_models_are_assets() -> None:
    got = assets(NEWEST)
    ephemeral = got["model.corner_shop.order_payments"]
    assert ephemeral.properties["materialized"] == "ephemeral"
    assert "relation_name" not in ephemeral.properties  # nothing is built for it
    analysis = got["analysis.corner_shop.revenue_by_region"]
    assert "materialized" not in analysis.properties
    snapshot = got["snapshot.corner_shop.orders_snapshot"]
    assert snapshot.properties["materialized"] == "snapshot"
    assert snapshot.properties["schema"] == "snapshots"
    package_model = got["model.shop_checks.calendar_days"]
    assert package_model.properties["package_name"] == "shop_checks"
    assert package_model.properties["dbt_project"] == PROJECT  # the project that ingests it


def test_versioned_models_keep_their_version_group_and_access() -> None:
    got = assets(NEWEST)
    for version in (1, 2):
        model = got[f"model.corner_shop.dim_stores.v{version}"]
        assert model.name == "dim_stores"
        assert model.properties["version"] == version
        assert model.properties["group"] == "store_operations"
        assert model.properties["access"] == "public"
        assert model.properties["alias"] == f"dim_stores_v{version}"
    assert [c.name for c in got["model.corner_shop.dim_stores.v1"].columns] == [
        "store_id",
        "store_name",
    ]


def test_disabled_nodes_operations_and_the_semantic_layer_are_skipped() -> None:
    doc, got = document(NEWEST), contents(NEWEST)
    ids = {a.id for a in got.assets}
    assert set(doc["disabled"]) == {
        "seed.corner_shop.legacy_orders",
        "model.corner_shop.legacy_summary",
    }
    assert not ids & set(doc["disabled"])
    for section in ("metrics", "semantic_models", "saved_queries", "unit_tests"):
        assert doc[section]
        assert not ids & set(doc[section])
    operations = {u for u, n in doc["nodes"].items() if n["resource_type"] == "operation"}
    assert len(operations) == 3 and not ids & operations
    assert {prefix(i) for i in ids} == {
        "model",
        "seed",
        "snapshot",
        "analysis",
        "source",
        "exposure",
    }
    assert got.warnings == (UNTESTABLE,)


def test_sources_are_named_source_dot_table_and_keep_their_relation() -> None:
    source = assets(NEWEST)["source.corner_shop.ext.stores"]
    assert source.name == "ext.stores"
    assert source.type == "source"
    assert source.description == "One row per physical store."
    assert source.properties == {
        "database": "corner_shop",
        "schema": "ext",
        "alias": "stores",
        "relation_name": '"corner_shop"."ext"."stores"',
        "source_name": "ext",
        "loader": "store_sync",
        "package_name": "corner_shop",
        "original_file_path": "models/staging/sources.yml",
        "dbt_project": "corner_shop",
    }


@pytest.mark.parametrize("schema", SCHEMAS)
def test_owners_come_from_meta_the_source_the_exposure_and_the_group(schema: str) -> None:
    got = assets(schema)
    owners = {uid: a.owners for uid, a in got.items() if a.owners}
    expected = {
        "model.corner_shop.customers": ("growth-team@example.com",),  # meta.owner
        "model.corner_shop.orders": ("finance-team@example.com", "stores-team@example.com"),
        "source.corner_shop.ext.stores": ("stores-team@example.com",),  # the source's meta
        "source.corner_shop.ext.regions": ("stores-team@example.com",),
        "exposure.corner_shop.weekly_revenue": ("dana.reyes@example.com",),  # email over name
        "exposure.corner_shop.churn_model": ("ml-team@example.com",),
    }
    if "model.corner_shop.dim_stores.v1" in got:  # groups came with dbt 1.5
        for version in (1, 2):
            expected[f"model.corner_shop.dim_stores.v{version}"] = ("store-ops@example.com",)
    assert owners == expected
    exposure = got["exposure.corner_shop.weekly_revenue"]
    assert exposure.tags == ("finance",)
    assert exposure.properties["exposure_type"] == "dashboard"
    assert exposure.properties["url"] == "https://bi.example.com/dashboards/7"
    assert "materialized" not in exposure.properties


@pytest.mark.parametrize("name", with_public(*OURS))
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


def _by_test_name(schema: str) -> dict[str, tuple[str, str | None, str]]:
    """Rule -> (asset, column, type), keyed by the test's name (the hash suffix of
    generic tests' unique_ids is left out)."""
    nodes = document(schema)["nodes"]
    return {nodes[r.id]["name"]: (r.asset_id, r.column, r.type) for r in contents(schema).rules}


@pytest.mark.parametrize("schema", ["v4", "v5", "v6", "v7", "v8"])
def test_tests_without_attached_node_attach_as_dbt_1_11_attaches_them(schema: str) -> None:
    """Before dbt 1.5 no test names its `attached_node`: the reader resolves it from
    the `model` argument (and, for relationships, leaves out the `to` side)."""
    assert all("attached_node" not in n for n in document(schema)["nodes"].values())
    newest = _by_test_name(NEWEST)
    older = _by_test_name(schema)
    assert older == {name: newest[name] for name in older}
    assert set(newest) - set(older) == {
        f"{check}_dim_stores_v{version}_store_id" for check in ("unique", "not_null") for version in (1, 2)
    }  # fmt: skip
    relationships = sorted(
        (r.asset_id, r.column, r.params)
        for r in contents(schema).rules
        if r.type == "relationships"
    )
    assert relationships == [
        ("model.corner_shop.orders", "customer_id",
         {"to": "ref('customers')", "field": "customer_id",
          "to_asset_id": "model.corner_shop.customers"}),
        ("model.corner_shop.stg_orders", "customer_id",
         {"to": "ref('stg_customers')", "field": "customer_id",
          "to_asset_id": "model.corner_shop.stg_customers"}),
        ("source.corner_shop.ext.stores", "region",
         {"to": "source('ext', 'regions')", "field": "region",
          "to_asset_id": "source.corner_shop.ext.regions"}),
    ]  # fmt: skip


def _rule_named(schema: str, name: str) -> Any:
    nodes = document(schema)["nodes"]
    return next(r for r in contents(schema).rules if nodes[r.id]["name"] == name)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_accepted_values_keep_their_values_null_included(schema: str) -> None:
    status = _rule_named(
        schema,
        "accepted_values_stg_orders_status__placed__shipped__completed__return_pending__returned",
    )
    assert (status.asset_id, status.column, status.type) == (
        "model.corner_shop.stg_orders",
        "status",
        "accepted_values",
    )
    assert status.params == {
        "values": ["placed", "shipped", "completed", "return_pending", "returned"]
    }
    region = _rule_named(
        schema, "source_accepted_values_ext_stores_region__north__south__east__west__None"
    )
    assert region.asset_id == "source.corner_shop.ext.stores"
    assert region.params == {"values": ["north", "south", "east", "west", None]}


@pytest.mark.parametrize("schema", SCHEMAS)
def test_source_tests_attach_to_the_source_not_the_relationship_target(schema: str) -> None:
    r = _rule_named(schema, "source_relationships_ext_stores_region__region__source_ext_regions_")
    assert document(schema)["nodes"][r.id].get("attached_node") is None
    assert r.asset_id == "source.corner_shop.ext.stores"
    assert r.column == "region"
    assert r.params == {
        "to": "source('ext', 'regions')",
        "field": "region",
        "to_asset_id": "source.corner_shop.ext.regions",
    }


@pytest.mark.parametrize("schema", SCHEMAS)
def test_custom_tests_name_their_generic_test_and_keep_arguments(schema: str) -> None:
    from_package = _rule_named(schema, "shop_checks_expression_holds_stg_payments_amount_0")
    assert (from_package.type, from_package.asset_id, from_package.column) == (
        "custom",
        "model.corner_shop.stg_payments",
        None,
    )
    assert from_package.params == {
        "expression": "amount >= 0",
        "test_name": "shop_checks.expression_holds",
    }
    own = _rule_named(schema, "row_count_between_stg_orders_1000__1")
    assert (own.type, own.asset_id, own.column) == ("custom", "model.corner_shop.stg_orders", None)
    assert own.params == {"min_rows": 1, "max_rows": 1000, "test_name": "row_count_between"}
    on_column = _rule_named(schema, "is_positive_stg_payments_amount")
    assert (on_column.column, on_column.params) == ("amount", {"test_name": "is_positive"})


@pytest.mark.parametrize("schema", SCHEMAS)
def test_singular_tests_attach_to_their_first_dependency_and_list_the_rest(schema: str) -> None:
    nodes = document(schema)["nodes"]
    r = rule(schema, "test.corner_shop.assert_every_payment_has_an_order")
    depends_on = nodes[r.id]["depends_on"]["nodes"]
    assert sorted(depends_on) == ["model.corner_shop.stg_orders", "model.corner_shop.stg_payments"]
    assert r.type == "custom"
    assert r.asset_id == depends_on[0]
    assert r.column is None
    assert r.params == {"test_name": "assert_every_payment_has_an_order", "depends_on": depends_on}
    single = rule(schema, "test.corner_shop.assert_store_regions_are_known")
    assert single.asset_id == "source.corner_shop.ext.stores"
    assert single.params == {"test_name": "assert_store_regions_are_known"}
    assert "test.corner_shop.assert_arithmetic_still_works" in nodes  # reads nothing: no rule
    assert UNTESTABLE in contents(schema).warnings


@pytest.mark.parametrize("name", with_public(*SCHEMAS, names=(MATTERMOST,)))
def test_severity_is_lower_cased(name: str) -> None:
    nodes = document(name)["nodes"]
    for r in contents(name).rules:
        assert r.severity == nodes[r.id]["config"]["severity"].lower()
    if name in SCHEMAS:  # dbt writes "ERROR" by default, and "warn" as the project did
        assert Counter(r.severity for r in contents(name).rules) == {
            "error": EXPECTED[name][6] - 1,
            "warn": 1,
        }


@pytest.mark.parametrize("name", with_public(NEWEST, names=(MATTERMOST,)))
def test_rule_params_are_copies_and_json_safe(name: str) -> None:
    doc = fresh(name)
    got = read_manifest(doc)
    for r in got.rules:
        json.dumps(r.params, allow_nan=False)
    accepted = next(r for r in got.rules if r.type == "accepted_values")
    accepted.params["values"].append("changed")
    assert "changed" not in doc["nodes"][accepted.id]["test_metadata"]["kwargs"]["values"]


@pytest.mark.parametrize("name", with_public("v4", NEWEST, names=(JAFFLE_V4, JAFFLE_NEW)))
def test_the_document_is_not_modified(name: str) -> None:
    doc = fresh(name)
    before = json.dumps(doc, sort_keys=True)
    read_manifest(doc)
    assert json.dumps(doc, sort_keys=True) == before
