"""Lineage from SQL text: which table a statement writes, which it reads, and which
source columns feed each written column, across dialects; names as the SQL spells
them; failures kept to their own statement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from service.domain.sql import (
    ColumnFlow,
    Failed,
    Parsed,
    SqlStatement,
    StatementLineage,
    lineage,
    parse,
    split_script,
)
from service.domain.sql.statements import MAX_STATEMENT_BYTES

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sql"
Flow = tuple[str, str, str, str | None]

TPCH = {
    "region": "r_regionkey r_name r_comment",
    "nation": "n_nationkey n_name n_regionkey n_comment",
    "supplier": "s_suppkey s_name s_address s_nationkey s_phone s_acctbal s_comment",
    "customer": "c_custkey c_name c_address c_nationkey c_phone c_acctbal c_mktsegment c_comment",
    "part": "p_partkey p_name p_mfgr p_brand p_type p_size p_container p_retailprice p_comment",
    "partsupp": "ps_partkey ps_suppkey ps_availqty ps_supplycost ps_comment",
    "orders": "o_orderkey o_custkey o_orderstatus o_totalprice o_orderdate o_orderpriority"
    " o_clerk o_shippriority o_comment",
    "lineitem": "l_orderkey l_partkey l_suppkey l_linenumber l_quantity l_extendedprice"
    " l_discount l_tax l_returnflag l_linestatus l_shipdate l_commitdate l_receiptdate"
    " l_shipinstruct l_shipmode l_comment",
}


def _parse_one(
    sql: str, dialect: str, database: str | None = None, schema: str | None = None
) -> Parsed:
    [result] = parse([SqlStatement(sql)], dialect, database, schema)
    assert isinstance(result, Parsed), result
    return result


def _lineage(parsed: Parsed, stored: Mapping[str, Sequence[str]]) -> StatementLineage:
    result = lineage(parsed, stored)
    assert isinstance(result, StatementLineage), result
    return result


def _flows(result: StatementLineage) -> set[Flow]:
    return {
        (f.source_table, f.source_column, f.target_column, f.transformation) for f in result.columns
    }


def _tpch(names: Sequence[str], upper: bool = False) -> dict[str, list[str]]:
    """Stored TPC-H columns for the names a statement reports (Snowflake stores upper case)."""
    found = {}
    for name in names:
        table = name.rsplit(".", 1)[-1].strip('"`').lower()
        if table in TPCH:
            found[name] = (TPCH[table].upper() if upper else TPCH[table]).split()
    return found


# --- Tables written and read ----------------------------------------------------------

TABLES = [
    # INSERT INTO ... SELECT, with joins
    (
        "snowflake",
        "INSERT INTO mart.orders_x SELECT o.id, c.name FROM orders o JOIN crm.customer c ON c.id = o.cid",
        ("DW", "RAW"),
        "DW.mart.orders_x",
        ("DW.RAW.orders", "DW.crm.customer"),
    ),
    (
        "postgres",
        "INSERT INTO mart.orders_x SELECT o.id, c.name FROM orders o JOIN crm.customer c ON c.id = o.cid",
        (None, "public"),
        "mart.orders_x",
        ("crm.customer", "public.orders"),
    ),
    (
        "bigquery",
        "INSERT INTO mart.orders_x SELECT o.id, c.name FROM raw.orders o JOIN crm.customer c ON c.id = o.cid",
        ("proj", "raw"),
        "proj.mart.orders_x",
        ("proj.crm.customer", "proj.raw.orders"),
    ),
    # INSERT OVERWRITE
    (
        "snowflake",
        "INSERT OVERWRITE INTO t SELECT * FROM s",
        ("DW", "RAW"),
        "DW.RAW.t",
        ("DW.RAW.s",),
    ),
    (
        "databricks",
        "INSERT OVERWRITE TABLE gold.t SELECT a FROM silver.s",
        ("main", None),
        "main.gold.t",
        ("main.silver.s",),
    ),
    (
        "hive",
        "INSERT OVERWRITE TABLE t PARTITION (dt='2024-01-01') SELECT a FROM s",
        (None, "default"),
        "default.t",
        ("default.s",),
    ),
    # CREATE TABLE AS SELECT, CREATE VIEW, CREATE OR REPLACE
    ("snowflake", "CREATE TABLE t AS SELECT a FROM s", ("DW", "RAW"), "DW.RAW.t", ("DW.RAW.s",)),
    ("postgres", "CREATE TABLE m.t AS SELECT a FROM s", (None, "public"), "m.t", ("public.s",)),
    ("bigquery", "CREATE TABLE ds.t AS SELECT a FROM ds.s", ("p", None), "p.ds.t", ("p.ds.s",)),
    ("snowflake", "CREATE VIEW v AS SELECT a FROM s", ("DW", "RAW"), "DW.RAW.v", ("DW.RAW.s",)),
    ("postgres", "CREATE VIEW v AS SELECT a FROM s", (None, "public"), "public.v", ("public.s",)),
    ("bigquery", "CREATE VIEW ds.v AS SELECT a FROM ds.s", ("p", None), "p.ds.v", ("p.ds.s",)),
    (
        "snowflake",
        "CREATE OR REPLACE VIEW v AS SELECT a FROM s",
        ("DW", "RAW"),
        "DW.RAW.v",
        ("DW.RAW.s",),
    ),
    (
        "postgres",
        "CREATE OR REPLACE VIEW v AS SELECT a FROM s",
        (None, "public"),
        "public.v",
        ("public.s",),
    ),
    (
        "bigquery",
        "CREATE OR REPLACE TABLE ds.t AS SELECT a FROM ds.s",
        ("p", None),
        "p.ds.t",
        ("p.ds.s",),
    ),
    # MERGE INTO ... USING a table or a subquery
    (
        "snowflake",
        "MERGE INTO t USING (SELECT * FROM s JOIN u ON s.id = u.id) x ON t.id = x.id "
        "WHEN MATCHED THEN UPDATE SET t.a = x.a",
        ("DW", "RAW"),
        "DW.RAW.t",
        ("DW.RAW.s", "DW.RAW.u"),
    ),
    (
        "postgres",
        "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)",
        (None, "public"),
        "public.t",
        ("public.s",),
    ),
    (
        "bigquery",
        "MERGE ds.t USING ds.s ON t.id = s.id WHEN MATCHED THEN DELETE",
        ("p", None),
        "p.ds.t",
        ("p.ds.s",),
    ),
    # UPDATE ... FROM
    (
        "snowflake",
        "UPDATE t SET a = s.a FROM s WHERE t.id = s.id",
        ("DW", "RAW"),
        "DW.RAW.t",
        ("DW.RAW.s",),
    ),
    (
        "postgres",
        "UPDATE t SET a = s.a FROM s JOIN u ON u.id = s.id WHERE t.id = s.id",
        (None, "public"),
        "public.t",
        ("public.s", "public.u"),
    ),
    (
        "bigquery",
        "UPDATE ds.t SET a = s.a FROM ds.s WHERE t.id = s.id",
        ("p", None),
        "p.ds.t",
        ("p.ds.s",),
    ),
    # T-SQL updates through an alias; MySQL joins in the target's place
    (
        "tsql",
        "UPDATE o SET o.a = s.b FROM orders o JOIN s ON o.id = s.id",
        ("db", "dbo"),
        "db.dbo.orders",
        ("db.dbo.s",),
    ),
    (
        "mysql",
        "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = t2.b",
        (None, "shop"),
        "shop.t1",
        ("shop.t2",),
    ),
    # SELECT ... INTO and CLONE write too
    ("tsql", "SELECT a INTO newt FROM s", ("db", "dbo"), "db.dbo.newt", ("db.dbo.s",)),
    ("snowflake", "CREATE TABLE t CLONE s", ("DW", "RAW"), "DW.RAW.t", ("DW.RAW.s",)),
    # CTEs are no tables; subqueries, UNION and joins are followed
    (
        "snowflake",
        "INSERT INTO t WITH c AS (SELECT a FROM s) SELECT a FROM c UNION ALL SELECT a FROM u",
        ("DW", "RAW"),
        "DW.RAW.t",
        ("DW.RAW.s", "DW.RAW.u"),
    ),
    (
        "postgres",
        "WITH c AS (SELECT a FROM s) INSERT INTO t SELECT a FROM c "
        "WHERE a IN (SELECT a FROM (SELECT a FROM u) sub)",
        (None, "public"),
        "public.t",
        ("public.s", "public.u"),
    ),
    (
        "bigquery",
        "CREATE TABLE ds.t AS WITH c AS (SELECT a FROM ds.s) SELECT c.a FROM c JOIN ds.u USING (a)",
        ("p", None),
        "p.ds.t",
        ("p.ds.s", "p.ds.u"),
    ),
    # The target is no source of its own
    ("postgres", "INSERT INTO t SELECT * FROM t", (None, "public"), "public.t", ()),
    # A plain SELECT is a read: no target, its tables still named
    (
        "snowflake",
        "WITH c AS (SELECT * FROM s) SELECT * FROM c JOIN u ON true",
        ("DW", "RAW"),
        None,
        ("DW.RAW.s", "DW.RAW.u"),
    ),
    ("postgres", "SELECT a FROM s", (None, "public"), None, ("public.s",)),
    ("bigquery", "SELECT a FROM ds.s", ("p", None), None, ("p.ds.s",)),
    # DDL and the rest move no data
    ("snowflake", "CREATE TABLE t (a INT, b TEXT)", ("DW", "RAW"), None, ()),
    ("snowflake", "DROP TABLE IF EXISTS t", ("DW", "RAW"), None, ()),
    ("snowflake", "ALTER TABLE t ADD COLUMN c INT", ("DW", "RAW"), None, ()),
    ("snowflake", "USE SCHEMA other", ("DW", "RAW"), None, ()),
    ("postgres", "GRANT SELECT ON t TO analyst", (None, "public"), None, ()),
    ("postgres", "DELETE FROM t USING s WHERE t.id = s.id", (None, "public"), None, ()),
    ("bigquery", "CREATE SCHEMA ds2", ("p", None), None, ()),
]


@pytest.mark.parametrize(("dialect", "sql", "defaults", "target", "sources"), TABLES)
def test_each_statement_names_the_table_it_writes_and_those_it_reads(
    dialect: str,
    sql: str,
    defaults: tuple[str | None, str | None],
    target: str | None,
    sources: tuple[str, ...],
) -> None:
    parsed = _parse_one(sql, dialect, *defaults)
    assert (parsed.target, parsed.sources) == (target, sources)


# --- Columns ----------------------------------------------------------------------------

COLUMNS = [
    (
        "insert_select_with_a_column_list",
        "snowflake",
        "INSERT INTO t (id, mail) SELECT c.id, md5(c.email) FROM customer c",
        {},
        {("customer", "id", "id", None), ("customer", "email", "mail", "MD5(C.EMAIL)")},
    ),
    (
        "insert_select_with_a_column_list",
        "postgres",
        "INSERT INTO t (id, mail) SELECT c.id, md5(c.email) FROM customer c",
        {},
        {("customer", "id", "id", None), ("customer", "email", "mail", "MD5(c.email)")},
    ),
    (
        "insert_select_with_a_column_list",
        "bigquery",
        "INSERT INTO ds.t (id, mail) SELECT c.id, TO_HEX(MD5(c.email)) FROM ds.customer c",
        {},
        {
            ("ds.customer", "id", "id", None),
            ("ds.customer", "email", "mail", "TO_HEX(MD5(c.email))"),
        },
    ),
    (
        "insert_without_a_list_lands_by_position_in_the_stored_columns",
        "postgres",
        "INSERT INTO t SELECT a.id, b.id FROM a JOIN b ON a.k = b.k",
        {"t": ["left_id", "right_id"]},
        {("a", "id", "left_id", None), ("b", "id", "right_id", None)},
    ),
    (
        "insert_by_name_lands_by_name_whatever_the_stored_order",
        "duckdb",
        "INSERT INTO t BY NAME SELECT b AS y, a AS x FROM s",
        {"t": ["x", "y"]},
        {("s", "b", "y", None), ("s", "a", "x", None)},
    ),
    (
        "ctas_through_ctes_and_aggregates",
        "snowflake",
        "CREATE OR REPLACE TABLE t AS WITH x AS (SELECT cid, amount FROM orders) "
        "SELECT cid AS customer, SUM(amount) AS total FROM x GROUP BY 1",
        {},
        {("orders", "cid", "customer", None), ("orders", "amount", "total", "SUM(X.AMOUNT)")},
    ),
    (
        "view_with_a_column_list",
        "postgres",
        "CREATE VIEW v (k, n) AS SELECT s.id, upper(s.name) FROM s",
        {},
        {("s", "id", "k", None), ("s", "name", "n", "UPPER(s.name)")},
    ),
    (
        "subquery_in_from_and_scalar_subquery",
        "bigquery",
        "CREATE TABLE ds.t AS SELECT sub.k, (SELECT MAX(v) FROM ds.u) AS top "
        "FROM (SELECT id AS k FROM ds.s) AS sub",
        {"ds.u": ["v"]},
        {
            ("ds.s", "id", "k", None),
            ("ds.u", "v", "top", "(SELECT MAX(u.v) AS _col_0 FROM ds.u AS u)"),
        },
    ),
    (
        "union_branches_keep_their_own_transformations",
        "postgres",
        "INSERT INTO t (k, total) SELECT id, sum(x) FROM a GROUP BY id UNION ALL SELECT id, y FROM b",
        {},
        {
            ("a", "id", "k", None),
            ("b", "id", "k", None),
            ("a", "x", "total", "SUM(a.x)"),
            ("b", "y", "total", None),
        },
    ),
    (
        "merge_update_and_insert_clauses",
        "snowflake",
        "MERGE INTO t USING (SELECT id, name FROM s) x ON t.id = x.id "
        "WHEN MATCHED THEN UPDATE SET t.name = x.name "
        "WHEN NOT MATCHED THEN INSERT (id, name) VALUES (x.id, UPPER(x.name))",
        {},
        {
            ("s", "id", "id", None),
            ("s", "name", "name", None),
            ("s", "name", "name", "UPPER(X.NAME)"),
        },
    ),
    (
        "merge_update_and_insert_clauses",
        "postgres",
        "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET total = t.total + s.amount "
        "WHEN NOT MATCHED THEN INSERT (id, total) VALUES (s.id, s.amount)",
        {"s": ["id", "amount"], "t": ["id", "total"]},
        {
            ("s", "amount", "total", "t.total + s.amount"),
            ("s", "id", "id", None),
            ("s", "amount", "total", None),
        },
    ),
    (
        "merge_update_and_insert_clauses",
        "bigquery",
        "MERGE ds.t USING ds.s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name "
        "WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)",
        {},
        {("ds.s", "name", "name", None), ("ds.s", "id", "id", None)},
    ),
    (
        "merge_star_clauses_land_by_name",
        "databricks",
        "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * "
        "WHEN NOT MATCHED THEN INSERT *",
        {"s": ["id", "v"]},
        {("s", "id", "id", None), ("s", "v", "v", None)},
    ),
    (
        "update_from",
        "snowflake",
        "UPDATE t SET a = s.a, b = s.b * 2 FROM s WHERE t.id = s.id",
        {},
        {("s", "a", "a", None), ("s", "b", "b", "S.B * 2")},
    ),
    (
        "update_from",
        "postgres",
        "UPDATE t SET a = s.a, b = s.b * 2 FROM s WHERE t.id = s.id",
        {},
        {("s", "a", "a", None), ("s", "b", "b", "s.b * 2")},
    ),
    (
        "update_from",
        "bigquery",
        "UPDATE ds.t SET a = s.a, b = s.b * 2 FROM ds.s WHERE t.id = s.id",
        {},
        {("ds.s", "a", "a", None), ("ds.s", "b", "b", "s.b * 2")},
    ),
    (
        "joins_bind_unqualified_columns_by_the_stored_columns",
        "postgres",
        "CREATE TABLE t AS SELECT name, amount FROM customer JOIN orders ON customer.id = orders.cid",
        {"customer": ["id", "name"], "orders": ["id", "cid", "amount"]},
        {("customer", "name", "name", None), ("orders", "amount", "amount", None)},
    ),
    (
        "an_output_computed_from_no_column_has_no_flow",
        "postgres",
        "INSERT INTO t (n, k, one) SELECT count(*), k, 1 FROM s GROUP BY k",
        {},
        {("s", "k", "k", None)},
    ),
]


@pytest.mark.parametrize(
    ("dialect", "sql", "stored", "flows"),
    [case[1:] for case in COLUMNS],
    ids=[f"{case[0]}-{case[1]}" for case in COLUMNS],
)
def test_each_written_column_names_the_source_columns_that_feed_it(
    dialect: str, sql: str, stored: dict[str, list[str]], flows: set[Flow]
) -> None:
    result = _lineage(_parse_one(sql, dialect), stored)
    assert _flows(result) == flows


def test_a_star_is_expanded_from_the_stored_columns() -> None:
    parsed = _parse_one(
        "CREATE VIEW v AS SELECT * FROM orders o JOIN customer c ON o.cid = c.id", "postgres"
    )
    result = _lineage(parsed, {"orders": ["id", "cid"], "customer": ["id", "name"]})
    assert [(f.source_table, f.source_column, f.target_column) for f in result.columns] == [
        ("orders", "id", "id"),
        ("orders", "cid", "cid"),
        ("customer", "name", "name"),
    ]
    assert result.warnings == ()


def test_a_star_over_a_table_with_no_stored_columns_is_warned_about_not_guessed() -> None:
    parsed = _parse_one("INSERT INTO t SELECT * FROM mystery", "snowflake", "DW", "RAW")
    result = _lineage(parsed, {})
    assert result.columns == ()
    assert result.sources == ("DW.RAW.mystery",)
    assert "no stored columns for DW.RAW.mystery" in result.warnings
    assert any("* over a table with no stored columns" in w for w in result.warnings)


def test_a_star_over_a_cte_is_expanded_when_its_table_is_known() -> None:
    parsed = _parse_one(
        "INSERT INTO m.t WITH c AS (SELECT * FROM Orders) SELECT * FROM c", "snowflake", "DW", "RAW"
    )
    result = _lineage(parsed, {"DW.RAW.Orders": ["ID", "AMOUNT"], "DW.m.t": ["K", "V"]})
    assert _flows(result) == {
        ("DW.RAW.Orders", "ID", "K", None),
        ("DW.RAW.Orders", "AMOUNT", "V", None),
    }


def test_stored_columns_match_the_sql_by_the_dialects_case_rule() -> None:
    parsed = _parse_one("CREATE TABLE t AS SELECT Email FROM customer", "snowflake")
    result = _lineage(parsed, {"customer": ["EMAIL", "ID"]})
    assert _flows(result) == {("customer", "Email", "Email", None)}
    assert result.warnings == ()


def test_an_unresolvable_column_is_warned_about() -> None:
    parsed = _parse_one("CREATE TABLE t AS SELECT name FROM a JOIN b ON a.id = b.id", "postgres")
    result = _lineage(parsed, {})
    assert result.columns == ()
    assert "column(s) not fully traced: name" in result.warnings


def test_a_target_flowing_into_itself_is_left_out() -> None:
    parsed = _parse_one("UPDATE t SET n = n + 1, m = s.m FROM s WHERE t.id = s.id", "postgres")
    result = _lineage(parsed, {"t": ["id", "n", "m"], "s": ["id", "m"]})
    assert _flows(result) == {("s", "m", "m", None)}


def test_an_insert_whose_counts_differ_says_so() -> None:
    parsed = _parse_one("INSERT INTO t SELECT a, b FROM s", "postgres")
    result = _lineage(parsed, {"t": ["x"], "s": ["a", "b"]})
    assert _flows(result) == {("s", "a", "x", None)}
    assert "the query yields 2 columns for 1 target columns" in result.warnings


def test_an_unnamed_expression_in_a_ctas_is_not_given_a_made_up_name() -> None:
    parsed = _parse_one("CREATE TABLE t AS SELECT upper(a), b FROM s", "postgres")
    result = _lineage(parsed, {"s": ["a", "b"]})
    assert _flows(result) == {("s", "b", "b", None)}
    assert any(w.startswith("unnamed expression(s)") for w in result.warnings)


def test_lineage_can_be_asked_again_of_the_same_parsed_statement() -> None:
    parsed = _parse_one("INSERT INTO t SELECT * FROM s", "postgres")
    first = _lineage(parsed, {"s": ["a"], "t": ["x"]})
    assert _lineage(parsed, {"s": ["a"], "t": ["x"]}) == first
    assert _flows(_lineage(parsed, {"s": ["b"], "t": ["y"]})) == {("s", "b", "y", None)}


def test_lineage_of_a_read_is_failed_not_raised() -> None:
    result = lineage(_parse_one("SELECT 1", "postgres"), {})
    assert isinstance(result, Failed)
    assert "writes no table" in result.message


def test_a_statement_sqlglot_cannot_resolve_is_failed_not_raised() -> None:
    parsed = _parse_one("INSERT INTO t SELECT a.x FROM s a JOIN u a ON true", "postgres")
    assert parsed.sources == ("s", "u")
    assert lineage(parsed, {}) == Failed(0, "Alias already used: a")


def test_columns_sqlglot_will_not_bind_are_traced_as_far_as_they_go() -> None:
    # Without stored columns sqlglot cannot tell whether `v` is correlated: it refuses
    # to qualify, and the statement is traced by its own names, with a warning.
    parsed = _parse_one(
        "CREATE TABLE ds.t AS SELECT sub.k, (SELECT MAX(v) FROM ds.u) AS top "
        "FROM (SELECT id AS k FROM ds.s) AS sub",
        "bigquery",
    )
    result = _lineage(parsed, {})
    assert _flows(result) == {("ds.s", "id", "k", None)}
    assert "columns not bound (Cannot resolve 'v' due to missing source schemas)" in (
        result.warnings
    )


def test_unnamed_outputs_keep_their_positions_when_columns_are_not_bound() -> None:
    parsed = _parse_one(
        "INSERT INTO ds.t (a, b) SELECT UPPER(v), s.id FROM ds.s, UNNEST(arr) AS v", "bigquery"
    )
    result = _lineage(parsed, {})
    assert _flows(result) == {("ds.s", "id", "b", None)}
    assert "column(s) not fully traced: a" in result.warnings


def test_a_table_function_is_no_source_and_no_warning() -> None:
    parsed = _parse_one("CREATE TABLE t AS SELECT x FROM read_parquet('f.parquet')", "duckdb")
    result = _lineage(parsed, {})
    assert (result.sources, result.columns, result.warnings) == ((), (), ())


# --- Names ------------------------------------------------------------------------------

QUOTING = [
    ("snowflake", 'INSERT INTO "Mart"."MixedCase" SELECT a FROM Raw.Orders', "DW", "PUBLIC",
     'DW."Mart"."MixedCase"', ("DW.Raw.Orders",)),
    ("postgres", 'INSERT INTO "Mart".t SELECT a FROM "Raw"."Orders"', None, "public",
     '"Mart".t', ('"Raw"."Orders"',)),
    ("bigquery", "INSERT INTO `proj.ds.Out` SELECT a FROM `proj`.ds.`In`", None, None,
     "`proj`.`ds`.`Out`", ("`proj`.ds.`In`",)),
    ("tsql", "INSERT INTO [dbo].[Report] SELECT a FROM Sales.dbo.Lines", "Sales", "dbo",
     "Sales.[dbo].[Report]", ("Sales.dbo.Lines",)),
    ("mysql", "INSERT INTO `Shop`.report SELECT a FROM Orders", None, "shop",
     "`Shop`.report", ("shop.Orders",)),
]  # fmt: skip


@pytest.mark.parametrize(("dialect", "sql", "database", "schema", "target", "sources"), QUOTING)
def test_names_keep_the_sqls_spelling_and_its_quotes(
    dialect: str,
    sql: str,
    database: str | None,
    schema: str | None,
    target: str,
    sources: tuple[str, ...],
) -> None:
    parsed = _parse_one(sql, dialect, database, schema)
    assert (parsed.target, parsed.sources) == (target, sources)


def test_spellings_the_dialect_resolves_alike_are_one_table_and_quoted_ones_another() -> None:
    parsed = _parse_one(
        'SELECT 1 FROM Orders a, ORDERS b, "ORDERS" c, "Orders" d', "snowflake", "DW", "RAW"
    )
    assert parsed.sources == ('DW.RAW."Orders"', "DW.RAW.Orders")


def test_quoted_columns_keep_their_quotes() -> None:
    parsed = _parse_one(
        'CREATE VIEW v AS SELECT "Email" AS "MailAddress", id FROM customer', "snowflake"
    )
    result = _lineage(parsed, {"customer": ['"Email"', "ID"]})
    assert _flows(result) == {
        ("customer", '"Email"', '"MailAddress"', None),
        ("customer", "id", "id", None),
    }


def test_defaults_fill_only_the_parts_the_sql_leaves_out() -> None:
    results = parse(
        [
            SqlStatement("INSERT INTO t SELECT a FROM s"),
            SqlStatement("INSERT INTO m.t SELECT a FROM other.m.s"),
        ],
        "snowflake",
        '"Db"',
        "RAW",
    )
    assert [(r.target, r.sources) for r in results if isinstance(r, Parsed)] == [
        ('"Db".RAW.t', ('"Db".RAW.s',)),
        ('"Db".m.t', ("other.m.s",)),
    ]


# --- Batches, failures, dialects -------------------------------------------------------


def test_a_broken_statement_fails_alone_with_its_index() -> None:
    statements = [
        SqlStatement("INSERT INTO a SELECT x FROM s", query_id="q1"),
        SqlStatement("INSERT INTO b SELEC x FROM", query_id="q2"),
        SqlStatement("INSERT INTO c SELECT x FROM s", query_id="q3"),
    ]
    results = parse(statements, "postgres", None, None)
    assert [type(r).__name__ for r in results] == ["Parsed", "Failed", "Parsed"]
    failed = results[1]
    assert isinstance(failed, Failed)
    assert failed.index == 1
    assert "\n" not in failed.message and len(failed.message) < 300
    parsed = results[2]
    assert isinstance(parsed, Parsed)
    assert (parsed.index, parsed.statement.query_id, parsed.target) == (2, "q3", "c")


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT 1; SELECT 2", "found 2 statements"),
        ("-- nothing but a comment", "found no statement"),
        ("SELECT 'unclosed", "Error tokenizing"),
    ],
)
def test_what_is_not_one_statement_fails(sql: str, message: str) -> None:
    [result] = parse([SqlStatement(sql)], "postgres", None, None)
    assert isinstance(result, Failed)
    assert message in result.message


def test_a_statement_over_the_size_limit_fails_without_being_parsed() -> None:
    huge = "SELECT " + ", ".join(["1"] * (MAX_STATEMENT_BYTES // 3 + 1))
    [result] = parse([SqlStatement(huge)], "postgres", None, None)
    assert isinstance(result, Failed)
    assert str(MAX_STATEMENT_BYTES) in result.message


DIALECTS = [
    "snowflake", "bigquery", "postgres", "redshift", "mysql", "trino",
    "duckdb", "databricks", "spark", "hive", "tsql",
]  # fmt: skip


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_supported_dialect_traces_an_insert_select(dialect: str) -> None:
    parsed = _parse_one(
        "INSERT INTO mart.t (k, v) SELECT s.id, UPPER(s.name) FROM raw.s AS s", dialect
    )
    assert (parsed.target, parsed.sources) == ("mart.t", ("raw.s",))
    flows = {(f.source_column, f.target_column) for f in _lineage(parsed, {}).columns}
    assert flows == {("id", "k"), ("name", "v")}


@pytest.mark.parametrize("dialect", ["", "  ", "oracle-ish", "Snowflake!"])
def test_an_unknown_dialect_is_a_value_error(dialect: str) -> None:
    with pytest.raises(ValueError, match="dialect"):
        parse([SqlStatement("SELECT 1")], dialect, None, None)
    with pytest.raises(ValueError, match="dialect"):
        split_script("SELECT 1", dialect)


def test_a_dialect_name_is_read_whatever_its_case() -> None:
    assert _parse_one("INSERT INTO t SELECT a FROM s", "Snowflake").target == "t"


# --- Scripts and query logs -----------------------------------------------------------


def test_split_script_cuts_only_at_semicolons_outside_strings_names_and_comments() -> None:
    script = """
        INSERT INTO t SELECT 'a;b' AS x FROM s; -- trailing; comment
        /* a; block */ SELECT "odd;name" FROM u;
        CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
        ;;
        SELECT 'it''s; fine'
    """
    assert [s.sql for s in split_script(script, "postgres")] == [
        "INSERT INTO t SELECT 'a;b' AS x FROM s",
        '-- trailing; comment\n        /* a; block */ SELECT "odd;name" FROM u',
        "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql",
        "SELECT 'it''s; fine'",
    ]


def test_split_script_keeps_the_dialects_quotes() -> None:
    statements = split_script("SELECT `a;b` FROM t; SELECT 2 # c;d\n", "mysql")
    assert [s.sql for s in statements] == ["SELECT `a;b` FROM t", "SELECT 2 # c;d"]


def test_split_script_of_an_unreadable_script_returns_it_whole_for_parse_to_report() -> None:
    [statement] = split_script("SELECT 1; SELECT 'unclosed", "postgres")
    [result] = parse([statement], "postgres", None, None)
    assert isinstance(result, Failed)


def _query_log() -> list[tuple[str, Parsed | Failed]]:
    log: list[tuple[str, Parsed | Failed]] = []
    for dialect, name, database, schema in [
        ("snowflake", "tpch_snowflake.sql", "TPCH", "RAW"),
        ("postgres", "tpch_postgres.sql", None, "public"),
    ]:
        statements = split_script((FIXTURES / name).read_text(), dialect)
        log += [(dialect, r) for r in parse(statements, dialect, database, schema)]
    return log


def test_a_query_log_of_two_dialects_parses_statement_by_statement() -> None:
    log = _query_log()
    assert len(log) >= 50
    assert [r for _, r in log if isinstance(r, Failed)] == []
    writes = [r for _, r in log if isinstance(r, Parsed) and r.target]
    assert len(writes) >= 35
    reads = [r for _, r in log if isinstance(r, Parsed) and not r.target and r.sources]
    assert len(reads) >= 4


def test_every_write_of_the_query_log_is_traced_to_its_columns() -> None:
    traced: dict[str, StatementLineage] = {}
    for dialect, parsed in _query_log():
        assert isinstance(parsed, Parsed)
        if parsed.target is None:
            continue
        stored = _tpch([*parsed.sources], upper=dialect == "snowflake")
        result = _lineage(parsed, stored)
        assert result.columns, parsed.statement.sql
        assert not [w for w in result.warnings if "not fully traced" in w], result.warnings
        traced.setdefault(result.target, result)
    q1 = _flows(traced["TPCH.REPORTS.Q1_PRICING_SUMMARY"])
    assert {(f[1], f[2]) for f in q1 if f[2] == "sum_disc_price"} == {
        ("l_extendedprice", "sum_disc_price"),
        ("l_discount", "sum_disc_price"),
    }
    assert ("TPCH.RAW.lineitem", "l_returnflag", "l_returnflag", None) in q1
    stg_orders = traced["TPCH.STAGING.STG_ORDERS"]  # SELECT * expanded from stored columns
    assert len(stg_orders.columns) == len(TPCH["orders"].split())
    revenue = traced['TPCH.MARTS."CustomerRevenue"']
    assert ("TPCH.MARTS.FCT_ORDERS", "net_revenue", '"TotalRevenue"') in {
        (f.source_table, f.source_column, f.target_column) for f in revenue.columns
    }
    q9 = {(f.source_column, f.target_column) for f in traced["marts.q9_product_profit"].columns}
    assert {c for c, t in q9 if t == "sum_profit"} == {
        "l_extendedprice",
        "l_discount",
        "ps_supplycost",
        "l_quantity",
    }
    merged = traced["marts.region_nation"]
    assert ColumnFlow("public.region", "r_name", "region", None) in merged.columns


def test_the_installed_sqlglot_ships_no_tpch_queries_so_the_fixtures_hold_their_own() -> None:
    import sqlglot

    shipped = list(Path(sqlglot.__file__).parent.rglob("*tpc*"))
    assert shipped == []
    fixtures = (FIXTURES / "tpch_snowflake.sql").read_text()
    assert fixtures.count("-- TPC-H Q") >= 5
