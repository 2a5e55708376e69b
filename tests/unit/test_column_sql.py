"""Compiled SQL -> column edges (service.domain.dbt.columns and column_trace), without
a database: what is traced, what is reported instead of guessed."""

from __future__ import annotations

import json
from pathlib import Path

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

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "dbt"
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


def test_real_manifests_yield_their_column_lineage_and_can_leave_it_out() -> None:
    manifest = json.loads((FIXTURES / "gen_jaffle_shop_v7_dbt1.3.8_duckdb.json").read_text())
    lineage = read_manifest(manifest).column_lineage
    assert lineage.nodes == 5 and lineage.warnings == ()
    assert (
        "seed.jaffle_shop.raw_customers",
        "id",
        "model.jaffle_shop.stg_customers",
        "customer_id",
    ) in {(e.source, e.source_column, e.target, e.target_column) for e in lineage.edges}
    assert read_manifest(manifest, column_lineage=False).column_lineage.edges == ()
