"""What a candidate manifest changes against the stored project, and the walk's
bookkeeping: pure, no database."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain.dbt_manifest import DbtAsset, DbtColumn, DbtRule, ManifestContents
from service.domain.impact import Change, StoredAsset, StoredRule, classify, excluded
from service.domain.impact_walk import Step, Walk

ORDERS = "model.shop.orders"
STG = "model.shop.stg_orders"
RAW = "source.shop.raw.orders"


def _asset(
    asset_id: str,
    columns: dict[str, str | None],
    type_: str = "model",
    materialized: str | None = "table",
    relation: str | None = None,
) -> DbtAsset:
    props: dict[str, str | int | float | bool] = {"dbt_project": "shop"}
    if materialized:
        props["materialized"] = materialized
    props["relation_name"] = relation or f"db.main.{asset_id.rsplit('.', 1)[1]}"
    return DbtAsset(
        id=asset_id,
        name=asset_id,
        type=type_,
        platform="duckdb",
        description=None,
        owners=(),
        tags=(),
        columns=tuple(DbtColumn(n, t, None, ()) for n, t in columns.items()),
        properties=props,
    )


def _stored(asset: DbtAsset) -> StoredAsset:
    materialized = asset.properties.get("materialized")
    relation = asset.properties.get("relation_name")
    return StoredAsset(
        asset.id,
        asset.type,
        tuple((c.name, c.type) for c in asset.columns),
        materialized if isinstance(materialized, str) else None,
        relation if isinstance(relation, str) else None,
    )


def _rule(rule_id: str, asset_id: str, column: str | None) -> DbtRule:
    return DbtRule(rule_id, asset_id, column, rule_id, "not_null", {}, "error")


def _contents(assets: Sequence[DbtAsset], rules: Sequence[DbtRule] = ()) -> ManifestContents:
    return ManifestContents(
        project="shop",
        dbt_version="1.9.0",
        schema_version="v12",
        adapter="duckdb",
        assets=tuple(assets),
        edges=(),
        rules=tuple(rules),
        skipped=0,
        warnings=(),
    )


BASE = [
    _asset(RAW, {"id": "integer"}, type_="source", materialized=None),
    _asset(STG, {"order_id": "integer", "status": "varchar", "amount": None}),
    _asset(ORDERS, {"order_id": "integer", "status": "varchar"}),
]
RULES = [_rule("test.shop.nn_status", STG, "status"), _rule("test.shop.rows", ORDERS, None)]


def _classify(candidate: list[DbtAsset], rules: list[DbtRule] = RULES) -> list[Change]:
    stored = {a.id: _stored(a) for a in BASE}
    stored_rules = {r.id: StoredRule(r.id, r.asset_id, r.column) for r in RULES}
    return classify(stored, stored_rules, _contents(candidate, rules))


def test_the_same_project_changes_nothing() -> None:
    assert _classify(BASE) == []


def test_a_removed_column_and_a_retyped_one_are_breaking_an_added_one_is_not() -> None:
    stg = _asset(STG, {"order_id": "BIGINT", "amount": "numeric", "channel": "varchar"})
    changes = _classify([BASE[0], stg, BASE[2]])
    assert changes == [
        Change("column_added", STG, "channel", None, "varchar", False),
        Change("column_type_changed", STG, "order_id", "integer", "BIGINT", True),
        Change("column_removed", STG, "status", "varchar", None, True),
    ]


def test_a_type_is_compared_as_people_write_it_and_an_unknown_type_is_no_change() -> None:
    stg = _asset(STG, {"order_id": " Integer ", "status": None, "amount": "numeric"})
    assert _classify([BASE[0], stg, BASE[2]]) == []


def test_removed_nodes_break_when_they_are_relations() -> None:
    exposure = _asset("exposure.shop.board", {}, type_="exposure", materialized=None)
    stored = {a.id: _stored(a) for a in [*BASE, exposure]}
    changes = classify(stored, {}, _contents([BASE[1]]))
    assert changes == [
        Change("exposure_removed", "exposure.shop.board", breaking=False),
        Change("model_removed", ORDERS, breaking=True),
        Change("source_removed", RAW, breaking=True),
    ]


def test_the_tests_of_a_removed_model_go_with_it() -> None:
    changes = _classify(BASE[:2], [RULES[0]])
    assert changes == [Change("model_removed", ORDERS, breaking=True)]


def test_a_removed_test_is_breaking_an_added_one_is_not() -> None:
    rules = [RULES[1], _rule("test.shop.unique_id", STG, "order_id")]
    assert _classify(BASE, rules) == [
        Change("test_added", STG, "order_id", None, "test.shop.unique_id", False),
        Change("test_removed", STG, "status", "test.shop.nn_status", None, True),
    ]


def test_an_added_model_breaks_nothing() -> None:
    extra = _asset("model.shop.loyalty", {"id": None})
    assert _classify([*BASE, extra]) == [Change("model_added", "model.shop.loyalty")]


def test_materialization_breaks_only_when_the_relation_goes_away() -> None:
    view = _asset(
        STG, {"order_id": "integer", "status": "varchar", "amount": None}, materialized="view"
    )
    ephemeral = _asset(
        ORDERS, {"order_id": "integer", "status": "varchar"}, materialized="ephemeral"
    )
    changes = _classify([BASE[0], view, ephemeral])
    assert changes == [
        Change("materialization_changed", ORDERS, None, "table", "ephemeral", True),
        Change("materialization_changed", STG, None, "table", "view", False),
    ]


def test_a_renamed_relation_is_breaking() -> None:
    moved = _asset(ORDERS, {"order_id": "integer", "status": "varchar"}, relation="db.marts.orders")
    assert _classify([BASE[0], BASE[1], moved]) == [
        Change("relation_changed", ORDERS, None, "db.main.orders", "db.marts.orders", True)
    ]


def test_seeds_start_where_a_breaking_change_touches() -> None:
    assert Change("column_removed", STG, "status", breaking=True).seed == (STG, "status")
    assert Change("model_removed", ORDERS, breaking=True).seed == (ORDERS, None)
    assert Change("column_added", STG, "x").seed is None
    assert excluded([Change("model_added", "a"), Change("column_removed", "b", "c")]) == {"a", "b"}


# -- the walk ---------------------------------------------------------------------


def test_each_node_once_at_its_fewest_hops_with_the_path_it_was_reached_by() -> None:
    walk = Walk([(STG, "status")], depth=5)
    assert (walk.assets(), walk.columns()) == ([], [(STG, "status")])
    walk.advance(
        [
            Step((STG, "status"), (ORDERS, "status"), ("a@x",)),
            Step((STG, "status"), ("s3://x/export", "st"), ()),
        ]
    )
    walk.advance(
        [
            Step((ORDERS, "status"), ("bi.board", None), ("bi@x",)),
            Step(("s3://x/export", "st"), ("bi.board", None), ("bi@x",)),
            Step(("s3://x/export", "st"), (STG, "status"), ()),  # a cycle back to the seed
        ]
    )
    assert walk.assets() == ["bi.board"]
    walk.advance([Step(("bi.board", None), (ORDERS, "status"), ("a@x",))])
    assert walk.done
    reached = walk.reached(excluded=set())
    assert [(r.asset, r.column, r.distance) for r in reached] == [
        (ORDERS, "status", 1),
        ("s3://x/export", "st", 1),
        ("bi.board", None, 2),
    ]
    # Ties go to the first in sorted order, so the answer is the same on every run.
    assert reached[2].via == (f"{STG}.status", f"{ORDERS}.status", "bi.board")
    assert reached[2].owners == ("bi@x",)


def test_the_walk_stops_at_its_depth_and_leaves_out_changed_assets() -> None:
    walk = Walk([(STG, None)], depth=1)
    walk.advance([Step((STG, None), (ORDERS, None), ()), Step((STG, None), ("x", None), ())])
    assert walk.done and walk.frontier
    assert [r.asset for r in walk.reached(excluded={ORDERS})] == ["x"]
