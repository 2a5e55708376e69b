"""Compiled SQL -> column edges (service.domain.dbt.columns and column_trace), without
a database: what is traced, what is reported instead of guessed."""

from __future__ import annotations

import pytest

from service.domain.dbt.column_lineage import SqlNode, read_column_lineage
from service.domain.dbt.columns import (
    MAX_SQL_CHARS,
    NodeColumns,
    Relation,
    describe,
    dialect_for,
    node_columns,
    relation_parts,
)
from service.domain.dbt.contents import DbtAsset, DbtColumn
from service.domain.dbt_manifest import read_manifest
from tests.support.dbt_fixtures import SCHEMAS, manifest, shared_manifest

RAW = Relation("seed.raw", ("db", "main", "raw"))
ORDERS = Relation("model.orders", ("db", "main", "orders"), ("order_id", "customer_id", "amount"))
CUSTOMERS = Relation("model.customers", ("db", "main", "customers"))


def edges(result: NodeColumns) -> set[tuple[str, str, str, str | None]]:
    return {(e.source, e.source_column, e.target_column, e.transformation) for e in result.edges}


def test_renames_through_ctes_over_a_relation_whose_columns_are_unknown() -> None:
    sql = """
        with source as (select * from "db"."main"."raw"),
        renamed as (select id as order_id, user_id as customer_id, status from source)
        select * from renamed
    """
    result = node_columns("model.stg", sql, "duckdb", [RAW])
    assert result.problem is None and result.unresolved == ()
    assert result.columns == ("order_id", "customer_id", "status")
    assert edges(result) == {
        ("seed.raw", "id", "order_id", None),
        ("seed.raw", "user_id", "customer_id", None),
        ("seed.raw", "status", "status", None),
    }
    assert all(e.target == "model.stg" for e in result.edges)


def test_expressions_become_the_transformation_without_comments() -> None:
    sql = """
        with payments as (select * from db.main.orders)
        select
            customer_id,
            sum(amount) /* dollars */ as total,
            count(distinct order_id) as n
        from payments group by 1
    """
    result = node_columns("model.totals", sql, "duckdb", [ORDERS])
    assert edges(result) == {
        ("model.orders", "customer_id", "customer_id", None),
        ("model.orders", "amount", "total", "SUM(payments.amount)"),
        ("model.orders", "order_id", "n", "COUNT(DISTINCT payments.order_id)"),
    }


def test_an_unqualified_column_goes_to_the_only_source_that_can_hold_it() -> None:
    sql = """
        select orders.customer_id, name, amount
        from db.main.orders as orders join db.main.customers as c on c.id = orders.customer_id
    """
    result = node_columns("model.joined", sql, "duckdb", [ORDERS, CUSTOMERS])
    assert ("model.customers", "name", "name", None) in edges(result)
    assert ("model.orders", "amount", "amount", None) in edges(result)
    assert result.unresolved == ()


def test_an_ambiguous_column_is_unresolved_not_guessed() -> None:
    sql = "select name from db.main.raw r join db.main.customers c on r.id = c.id"
    result = node_columns("model.x", sql, "duckdb", [RAW, CUSTOMERS])
    assert result.unresolved == ("name",) and result.edges == ()
    message = describe("model.x", result)
    assert message == "model.x: column lineage incomplete: column(s) name not fully traced"


def test_a_star_over_unknown_columns_is_reported_and_leaves_the_list_open() -> None:
    result = node_columns("model.copy", "select * from db.main.raw", "duckdb", [RAW])
    assert result.columns is None and result.unresolved == ("*",) and result.edges == ()
    assert "SELECT *" in (describe("model.copy", result) or "")


def test_a_star_over_a_known_parent_expands() -> None:
    result = node_columns("model.copy", "select * from db.main.orders", "duckdb", [ORDERS])
    assert result.columns == ("order_id", "customer_id", "amount")
    assert len(result.edges) == 3


def test_union_branches_line_up_by_position_and_subqueries_are_followed() -> None:
    sql = """
        select order_id as id, (select max(c.id) from db.main.customers c) as top from db.main.orders
        union all
        select id, 0 from db.main.raw
    """
    result = node_columns("model.u", sql, "duckdb", [ORDERS, CUSTOMERS, RAW])
    assert result.columns == ("id", "top")
    assert {(e.source, e.source_column, e.target_column) for e in result.edges} == {
        ("model.orders", "order_id", "id"),
        ("seed.raw", "id", "id"),
        ("model.customers", "id", "top"),
    }


def test_a_table_that_is_not_a_parent_is_reported() -> None:
    sql = "select o.order_id, x.y from db.main.orders o join db.other.lookup x on x.k = o.order_id"
    result = node_columns("model.l", sql, "duckdb", [ORDERS])
    assert result.unknown_relations == ("db.other.lookup",)
    assert [(e.source_column, e.target_column) for e in result.edges] == [("order_id", "order_id")]
    assert "db.other.lookup" in (describe("model.l", result) or "")


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("select from from db.main.raw where (((", "could not be analysed"),
        ("insert into db.main.raw values (1)", "not a query"),
        ("select 1 as one", "names none of its parents"),
        ("".join(["select * from db.main.raw", " " * MAX_SQL_CHARS]), "longer than"),
    ],
)
def test_sql_that_cannot_be_analysed_is_a_problem_not_an_error(sql: str, reason: str) -> None:
    result = node_columns("model.bad", sql, "duckdb", [RAW])
    assert result.problem is not None and reason in result.problem
    assert (describe("model.bad", result) or "").startswith("model.bad: column lineage skipped: ")


def test_a_recursive_cte_terminates() -> None:
    sql = """
        with recursive r as (
            select id, 1 as depth from db.main.raw
            union all
            select id, depth + 1 from r where depth < 3
        )
        select id, depth from r
    """
    result = node_columns("model.r", sql, "duckdb", [RAW])
    assert ("seed.raw", "id", "id", None) in edges(result)


def test_a_column_the_parents_list_lacks_falls_back_to_tracing_by_name() -> None:
    stale = Relation("model.orders", ("db", "main", "orders"), ("order_id",))
    sql = "with o as (select * from db.main.orders) select o.order_id, o.status from o"
    result = node_columns("model.s", sql, "duckdb", [stale])
    assert {(e.source_column, e.target_column) for e in result.edges} == {
        ("order_id", "order_id"),
        ("status", "status"),
    }


def test_case_folding_dialects_keep_the_manifests_spelling() -> None:
    parent = Relation("source.raw", ("analytics", "raw", "orders"), (), ("id",))
    sql = "select ID as order_id, AMOUNT from analytics.raw.orders"
    result = node_columns("model.sf", sql, "snowflake", [parent], known=["order_id"])
    assert {(e.source_column, e.target_column) for e in result.edges} == {
        ("id", "order_id"),
        ("AMOUNT", "AMOUNT"),
    }


def test_relation_names_split_as_adapters_quote_them() -> None:
    assert relation_parts('"Db"."main"."Raw.Orders"', []) == ("db", "main", "raw.orders")
    assert relation_parts("`proj`.`ds`.`t`", []) == ("proj", "ds", "t")
    assert relation_parts("[db].[dbo].[t]", []) == ("db", "dbo", "t")
    assert relation_parts("ANALYTICS.RAW.ORDERS", []) == ("analytics", "raw", "orders")
    assert relation_parts(None, ["DB", None, "T"]) == ("db", "t")
    assert relation_parts('"unclosed.x', ["db", "s", "t"]) == ("db", "s", "t")


def test_adapters_map_to_sqlglot_dialects() -> None:
    assert dialect_for("duckdb") == "duckdb"
    assert dialect_for("sqlserver") == "tsql"
    assert dialect_for("Snowflake") == "snowflake"
    assert dialect_for("unheard_of") is None and dialect_for(None) is None


def _asset(uid: str, relation: str, columns: tuple[str, ...] = ()) -> DbtAsset:
    return DbtAsset(
        id=uid,
        name=uid,
        type=uid.split(".")[0],
        platform="duckdb",
        description=None,
        owners=(),
        tags=(),
        columns=tuple(DbtColumn(c, None, None, ()) for c in columns),
        properties={"relation_name": relation},
    )


def test_parents_are_read_before_children_whatever_the_document_order() -> None:
    assets = [
        _asset("seed.raw", '"db"."main"."raw"'),
        _asset("model.stg", '"db"."main"."stg"', ("order_id",)),
        _asset("model.mart", '"db"."main"."mart"'),
    ]
    nodes = [
        SqlNode(
            "model.mart", "with s as (select * from db.main.stg) select * from s", ("model.stg",)
        ),
        SqlNode("model.stg", "select id as order_id, amount from db.main.raw", ("seed.raw",)),
    ]
    lineage = read_column_lineage(assets, nodes, "duckdb", without_sql=2)
    mart = {(e.source_column, e.target_column) for e in lineage.edges if e.target == "model.mart"}
    # the documented list of stg names one column; its SQL gives both
    assert mart == {("order_id", "order_id"), ("amount", "amount")}
    assert lineage.nodes == 2 and lineage.skipped == 0
    assert lineage.warnings[0].startswith("2 model(s) have no compiled SQL")


# Our dbt project's column lineage, read off its SQL by hand: (target, column) <- (source,
# column) for every node with compiled SQL. Keys without a project are corner_shop's.
HAND_TRACED = {
    ("model.stg_customers", "customer_id"): {("seed.raw_customers", "id")},
    ("model.stg_customers", "first_name"): {("seed.raw_customers", "first_name")},
    ("model.stg_customers", "last_name"): {("seed.raw_customers", "last_name")},
    ("model.stg_customers", "email"): {("seed.raw_customers", "email")},
    ("model.stg_orders", "order_id"): {("seed.raw_orders", "id")},
    ("model.stg_orders", "customer_id"): {("seed.raw_orders", "user_id")},
    ("model.stg_orders", "store_id"): {("seed.raw_orders", "store_id")},
    ("model.stg_orders", "order_date"): {("seed.raw_orders", "ordered_at")},
    ("model.stg_orders", "status"): {("seed.raw_orders", "status")},
    ("model.stg_payments", "payment_id"): {("seed.raw_payments", "id")},
    ("model.stg_payments", "order_id"): {("seed.raw_payments", "order_id")},
    ("model.stg_payments", "payment_method"): {("seed.raw_payments", "method")},
    ("model.stg_payments", "amount"): {("seed.raw_payments", "amount_cents")},
    ("model.stg_stores", "store_id"): {("source.ext.stores", "id")},
    ("model.stg_stores", "store_name"): {("source.ext.stores", "name")},
    ("model.stg_stores", "region"): {("source.ext.stores", "region")},
    ("model.stg_stores", "opened_on"): {("source.ext.stores", "opened_on")},
    ("model.order_payments", "order_id"): {("model.stg_payments", "order_id")},
    ("model.order_payments", "paid"): {("model.stg_payments", "amount")},
    ("model.orders", "order_id"): {("model.stg_orders", "order_id")},
    ("model.orders", "customer_id"): {("model.stg_orders", "customer_id")},
    ("model.orders", "order_date"): {("model.stg_orders", "order_date")},
    ("model.orders", "status"): {("model.stg_orders", "status")},
    ("model.orders", "store_name"): {("model.stg_stores", "store_name")},
    ("model.orders", "region"): {("model.stg_stores", "region")},
    # sum(case when payment_method = '...' then amount else 0 end): both columns feed it
    ("model.orders", "card_amount"): {("model.stg_payments", "payment_method"), ("model.stg_payments", "amount")},
    ("model.orders", "voucher_amount"): {("model.stg_payments", "payment_method"), ("model.stg_payments", "amount")},
    ("model.orders", "bank_transfer_amount"): {("model.stg_payments", "payment_method"), ("model.stg_payments", "amount")},
    ("model.orders", "amount"): {("model.stg_payments", "amount")},
    ("model.customers", "customer_id"): {("model.stg_customers", "customer_id")},
    ("model.customers", "first_name"): {("model.stg_customers", "first_name")},
    ("model.customers", "last_name"): {("model.stg_customers", "last_name")},
    ("model.customers", "first_order"): {("model.stg_orders", "order_date")},
    ("model.customers", "most_recent_order"): {("model.stg_orders", "order_date")},
    ("model.customers", "number_of_orders"): {("model.stg_orders", "order_id")},
    ("model.customers", "lifetime_value"): {("model.stg_payments", "amount")},
    # snapshots select * from stg_orders, whose columns its own SQL gave
    **{("snapshot.orders_snapshot", c): {("model.stg_orders", c)}
       for c in ("order_id", "customer_id", "store_id", "order_date", "status")},
    ("analysis.revenue_by_region", "region"): {("model.stg_stores", "region")},
    ("analysis.revenue_by_region", "revenue"): {("model.orders", "amount")},
}  # fmt: skip
# dbt 1.5 on: the versioned model dim_stores (v1 without region).
VERSIONED = {
    (f"model.dim_stores.v{v}", c): {("model.stg_stores", c)}
    for v, columns in ((1, ("store_id", "store_name")), (2, ("store_id", "store_name", "region")))
    for c in columns
}


def _ours(uid: str) -> str:
    kind, rest = uid.split(".", 1)
    return f"{kind}.corner_shop.{rest}"


@pytest.mark.parametrize("schema", SCHEMAS)
def test_real_manifests_yield_their_column_lineage(schema: str) -> None:
    lineage = read_manifest(shared_manifest(schema)).column_lineage
    want = HAND_TRACED | (VERSIONED if schema not in ("v4", "v5", "v6", "v7", "v8") else {})
    got: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for e in lineage.edges:
        got.setdefault((e.target, e.target_column), set()).add((e.source, e.source_column))
    assert got == {
        (_ours(target), column): {(_ours(s), c) for s, c in sources}
        for (target, column), sources in want.items()
    }
    assert lineage.nodes == len({target for target, _ in want})
    assert (lineage.skipped, lineage.unresolved_columns, lineage.warnings) == (0, 0, ())


def test_expressions_of_real_sql_are_kept_as_written_less_comments() -> None:
    lineage = read_manifest(shared_manifest("v4")).column_lineage
    expressions = {
        (e.target, e.target_column): e.transformation
        for e in lineage.edges
        if e.target_column in ("email", "amount", "lifetime_value")
    }
    assert expressions == {
        ("model.corner_shop.stg_customers", "email"): "LOWER(source.email)",
        ("model.corner_shop.stg_payments", "amount"): "source.amount_cents / 100.0",
        ("model.corner_shop.orders", "amount"): "COALESCE(order_payments.total_amount, 0)",
        ("model.corner_shop.customers", "lifetime_value"): "SUM(payments.amount)",
    }


def test_column_lineage_can_be_left_out() -> None:
    assert read_manifest(manifest("v7"), column_lineage=False).column_lineage.edges == ()
