import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.datasets import (
    DatasetNameError,
    DatasetRef,
    dbt_dataset,
    normalise,
    parse_namespace_map,
    platform_of,
)

# Spellings of one dataset, as different producers write it: each normalises to the first.


def same(*spellings: tuple[str, str], id: str) -> object:
    return pytest.param(spellings, id=id)


SAME = [
    same(
        ("snowflake://acme-prod", "ANALYTICS.PUBLIC.ORDERS"),
        ("snowflake://acme-prod", "analytics.public.orders"),
        ("Snowflake://ACME-PROD/", 'Analytics."PUBLIC".orders'),
        ("snowflake://acme-prod.snowflakecomputing.com", '"ANALYTICS".public."ORDERS"'),
        id="snowflake folds unquoted parts to upper case",
    ),
    same(
        ("snowflake://acme-prod", 'ANALYTICS.PUBLIC."MixedCase"'),
        ("snowflake://acme-prod", 'analytics.public."MixedCase"'),
        id="snowflake keeps a quoted part's case",
    ),
    same(
        ("snowflake://acme-prod", 'DB.S."a""b"'),
        ("snowflake://acme-prod", 'db.s."a""b"'),
        id="snowflake unescapes a doubled quote",
    ),
    same(
        ("snowflake://xy12345.us-west-1.aws", "DB.S.T"),
        ("snowflake://xy12345", "db.s.t"),
        ("snowflake://XY12345.us-west-1.snowflakecomputing.com", "db.s.t"),
        id="snowflake locator completed as dbt-ol does",
    ),
    same(
        ("postgres://db:5432", "shop.public.orders"),
        ("postgres://db", "SHOP.Public.ORDERS"),
        ("postgresql://DB:5432/", 'shop."public".orders'),
        id="postgres folds unquoted parts to lower case, default port 5432",
    ),
    same(
        ("postgres://db:5432", 'shop.public."Orders"'),
        ("postgres://db", 'SHOP.PUBLIC."Orders"'),
        id="postgres keeps a quoted part's case",
    ),
    same(
        ("redshift://cluster.us-east-1:5439", "dev.public.orders"),
        ("redshift://cluster.us-east-1", 'DEV."Public".ORDERS'),
        ("redshift://cluster.abc123.us-east-1.redshift.amazonaws.com:5439", "dev.public.orders"),
        id="redshift lower-cases even quoted parts, endpoint is cluster.region",
    ),
    same(
        ("trino://coordinator:8080", "hive.sales.orders"),
        ("trino://Coordinator", 'Hive."Sales".ORDERS'),
        id="trino",
    ),
    same(
        ("duckdb:///data/Dev.duckdb", "dev.main.orders"),
        ("duckdb:///data/Dev.duckdb/", 'DEV.MAIN."Orders"'),
        id="duckdb keeps the file path's case",
    ),
    same(
        ("databricks://adb-1.azuredatabricks.net", "main.sales.orders"),
        ("databricks://ADB-1.azuredatabricks.net", "`Main`.`Sales`.`Orders`"),
        id="databricks",
    ),
    same(
        ("spark://thrift:10001", "sales.orders"),
        ("spark://thrift:10001", "`SALES`.Orders"),
        id="spark",
    ),
    same(
        ("hive://metastore:9083", "sales.orders"),
        ("hive://METASTORE:9083", "Sales.`ORDERS`"),
        id="hive",
    ),
    same(
        ("bigquery", "my-project.Sales.Orders"),
        ("bigquery", "`my-project.Sales.Orders`"),
        ("BigQuery", "`My-Project`.Sales.`Orders`"),
        id="bigquery lower-cases the project only",
    ),
    same(
        ("bigquery", "example.com:proj.Sales.Orders"),
        ("bigquery", "`example.com:proj`.Sales.Orders"),
        id="bigquery domain-scoped project",
    ),
    same(
        ("mysql://db:3306", "Shop.Orders"),
        ("mysql://DB", "`Shop`.`Orders`"),
        id="mysql strips backticks, default port 3306",
    ),
    same(
        ("mysql://db:3306", "shop.`order.lines`"),
        ("mysql://db:3306", 'shop."order.lines"'),
        id="mysql keeps a quoted dot in one part",
    ),
    same(
        ("mssql://sql:1433", "dw.dbo.Orders"),
        ("mssql://sql", "[dw].[dbo].[Orders]"),
        id="sqlserver brackets",
    ),
    same(
        ("s3://bucket", "warehouse/orders"),
        ("s3a://bucket/", "/warehouse//orders/"),
        ("s3n://BUCKET", "warehouse/orders"),
        id="s3 and its Hadoop aliases",
    ),
    same(
        ("gs://bucket", "Raw/Orders.parquet"),
        ("gcs://bucket", "/Raw/Orders.parquet"),
        id="gcs",
    ),
    same(
        ("abfss://data@acct.dfs.core.windows.net", "Raw/Orders"),
        ("abfs://data@ACCT.dfs.core.windows.net/", "Raw/Orders/"),
        id="abfss keeps container@account",
    ),
    same(("s3://bucket", "/"), ("s3://bucket", "///"), id="a bucket's root"),
    same(("file", "data/Orders.csv"), ("FILE", "/data/Orders.csv"), id="file"),
    same(
        ("hdfs://namenode:8020", "warehouse/orders"),
        ("hdfs://NameNode:8020", "/warehouse/orders/"),
        id="hdfs",
    ),
    same(
        ("kafka://broker:9092", "Orders.Events"),
        ("kafka://Broker", " Orders.Events "),
        id="kafka keeps the topic, default port 9092",
    ),
    same(
        ("custom://host", "Some.Name"),
        ("CUSTOM://Host/", "  Some.Name\t"),
        id="unknown scheme keeps the name",
    ),
]


@pytest.mark.parametrize("spellings", SAME)
def test_spellings_of_one_dataset_meet(spellings: tuple[tuple[str, str], ...]) -> None:
    canonical = DatasetRef(*spellings[0])
    assert [normalise(*s) for s in spellings] == [canonical] * len(spellings)


DIFFERENT = [
    pytest.param(("snowflake://a-b", "DB.S.T"), ("snowflake://a-b", 'DB.S."t"'), id="snowflake"),
    pytest.param(("postgres://h", "d.s.t"), ("postgres://h", 'd.s."T"'), id="postgres"),
    pytest.param(("postgres://h", "d.s.t"), ("postgres://h:5433", "d.s.t"), id="port"),
    pytest.param(("postgres://h", '"a.b".c'), ("postgres://h", "a.b.c"), id="quoted dot"),
    pytest.param(("bigquery", "p.Sales.T"), ("bigquery", "p.sales.T"), id="bigquery dataset"),
    pytest.param(("mysql://h", "Shop.Orders"), ("mysql://h", "shop.orders"), id="mysql"),
    pytest.param(("s3://b", "Raw/x"), ("s3://b", "raw/x"), id="s3"),
    pytest.param(("kafka://k", "Orders"), ("kafka://k", "orders"), id="kafka"),
    pytest.param(("trino://h", "c.s.t"), ("trino://h:443", "c.s.t"), id="trino"),
    pytest.param(("hive://h", "d.t"), ("hive://h:9083", "d.t"), id="hive has no default port"),
    pytest.param(("redshift://x", "d.s.t"), ("postgres://x", "d.s.t"), id="scheme"),
    pytest.param(("custom://h", "A"), ("custom://h", "a"), id="unknown scheme"),
]


@pytest.mark.parametrize(("one", "other"), DIFFERENT)
def test_different_datasets_stay_apart(one: tuple[str, str], other: tuple[str, str]) -> None:
    assert normalise(*one).key != normalise(*other).key


@pytest.mark.parametrize(
    ("namespace", "expected"),
    [
        ("postgres://db", "postgres://db:5432"),
        ("mysql://db", "mysql://db:3306"),
        ("redshift://c.us-east-1", "redshift://c.us-east-1:5439"),
        ("trino://t", "trino://t:8080"),
        ("kafka://k", "kafka://k:9092"),
        ("mssql://m", "mssql://m:1433"),
        ("oracle://o", "oracle://o:1521"),
        ("postgres://db:05432", "postgres://db:5432"),
        ("postgres://[::1]", "postgres://[::1]:5432"),
        ("postgres://[::1]:6432", "postgres://[::1]:6432"),
        ("hive://h", "hive://h"),
        ("hdfs://nn", "hdfs://nn"),
        ("spark://s", "spark://s"),
        ("databricks://w", "databricks://w"),
        ("bigquery", "bigquery"),
        ("bigquery://", "bigquery"),
        ("file://", "file"),
        ("file:/data/", "file:/data"),
        ("arn:aws:glue:us-east-1:123", "arn:aws:glue:us-east-1:123"),
        ("snowflake://xy12345.eu-west-1", "snowflake://xy12345.eu-west-1.aws"),
        ("snowflake://xy12345.east-us-2.azure", "snowflake://xy12345.east-us-2.azure"),
        ("snowflake://Org-Acct.snowflakecomputing.com", "snowflake://org-acct"),
    ],
)
def test_namespace_canonical_form(namespace: str, expected: str) -> None:
    assert normalise(namespace, "t").namespace == expected


@pytest.mark.parametrize(
    ("namespace", "expected"),
    [
        ("snowflake://a-b", "snowflake"),
        ("bigquery", "bigquery"),
        ("postgres://h", "postgres"),
        ("PostgreSQL://h", "postgres"),
        ("redshift://h", "redshift"),
        ("mysql://h", "mysql"),
        ("trino://h", "trino"),
        ("duckdb:///x.db", "duckdb"),
        ("databricks://h", "databricks"),
        ("hive://h", "hive"),
        ("spark://h", "spark"),
        ("mssql://h", "sqlserver"),
        ("s3a://b", "s3"),
        ("gs://b", "gcs"),
        ("abfss://c@a.dfs.core.windows.net", "abfs"),
        ("kafka://k", "kafka"),
        ("file", "file"),
        ("custom://h", None),
        ("arn:aws:glue:r:1", None),
    ],
)
def test_platform_of(namespace: str, expected: str | None) -> None:
    assert platform_of(namespace) == expected


@pytest.mark.parametrize(
    ("namespace", "name", "field"),
    [
        ("", "t", "namespace"),
        ("   ", "t", "namespace"),
        ("postgres://my db", "t", "namespace"),
        ("postgres://db\x00", "t", "namespace"),
        ("postgres://db:port", "t", "namespace"),
        ("://db", "t", "namespace"),
        ("9p://db", "t", "namespace"),
        (":db", "t", "namespace"),
        ("postgres://db", "", "name"),
        ("postgres://db", "  \t ", "name"),
        ("postgres://db", "db..t", "name"),
        ("postgres://db", ".t", "name"),
        ("postgres://db", "db.t.", "name"),
        ("postgres://db", 'db."".t', "name"),
        ("postgres://db", 'db."open', "name"),
        ("postgres://db", 'db."a"b', "name"),
        ("postgres://db", 'db."a b"', "name"),
        ("postgres://db", "db.t\x07", "name"),
        ("postgres://db", "db.t\u200b", "name"),
        ("bigquery", "p..t", "name"),
        ("snowflake://a-b", "DB. .T", "name"),
        ("kafka://k", "\n", "name"),
        ("s3://b", "a\x00b", "name"),
    ],
)
def test_errors_name_the_wrong_field(namespace: str, name: str, field: str) -> None:
    with pytest.raises(DatasetNameError) as caught:
        normalise(namespace, name)
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)


def test_length_limits() -> None:
    assert len(normalise("custom://k", "t" * 501).default_id) == 512
    namespace_510 = "file://" + "h" * 503
    assert len(normalise(namespace_510, "t").default_id) == 512
    for namespace, name, field in [
        (namespace_510 + "h", "t", "namespace"),
        ("k", "t" * 511, "name"),
        ("custom://k", "t" * 502, "name"),  # each part fits, `namespace/name` does not
    ]:
        with pytest.raises(DatasetNameError) as caught:
            normalise(namespace, name)
        assert caught.value.field == field


def test_limits_apply_to_the_canonical_form() -> None:
    # 506 characters as written, 511 once the default port is added.
    with pytest.raises(DatasetNameError) as caught:
        normalise("postgres://" + "h" * 495, "t")
    assert caught.value.field == "namespace"


def test_key_and_default_id() -> None:
    ref = normalise("postgres://db", "shop.public.orders")
    assert ref.key == "postgres://db:5432\nshop.public.orders"
    assert ref.default_id == "postgres://db:5432/shop.public.orders"


def test_unicode_spellings_meet() -> None:
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    assert normalise("kafka://k", composed) == normalise("kafka://k", decomposed)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("snowflake", "snowflake://acme-prod", "analytics", "public", "orders"),
            DatasetRef("snowflake://acme-prod", "ANALYTICS.PUBLIC.ORDERS"),
        ),
        (
            ("bigquery", "bigquery", "My-Project", "Sales", "Orders"),
            DatasetRef("bigquery", "my-project.Sales.Orders"),
        ),
        (
            ("postgres", "postgres://db", "Shop", "public", "Orders"),
            DatasetRef("postgres://db:5432", "shop.public.orders"),
        ),
        (
            ("spark", "spark://thrift:10001", None, "Sales", "Orders"),
            DatasetRef("spark://thrift:10001", "sales.orders"),
        ),
        (
            ("duckdb", "duckdb:///data/dev.duckdb", "dev", "main", "Orders"),
            DatasetRef("duckdb:///data/dev.duckdb", "dev.main.orders"),
        ),
        (
            ("databricks", "databricks://w", "", "Sales", "Orders"),
            DatasetRef("databricks://w", "sales.orders"),
        ),
        # A namespace whose scheme names no platform: the adapter's rule decides.
        (
            ("snowflake", "warehouse", "analytics", "public", "orders"),
            DatasetRef("warehouse", "ANALYTICS.PUBLIC.ORDERS"),
        ),
        (
            ("postgres", "warehouse", "Shop", "public", "Orders"),
            DatasetRef("warehouse", "shop.public.orders"),
        ),
    ],
)
def test_dbt_dataset(
    args: tuple[str, str, str | None, str | None, str], expected: DatasetRef
) -> None:
    assert dbt_dataset(*args) == expected


def test_dbt_and_an_airflow_snowflake_event_meet() -> None:
    from_dbt = dbt_dataset("snowflake", "snowflake://acme-prod", "analytics", "public", "orders")
    assert from_dbt == normalise("snowflake://acme-prod", "ANALYTICS.PUBLIC.ORDERS")


def test_dbt_dataset_errors_name_the_field() -> None:
    with pytest.raises(DatasetNameError) as caught:
        dbt_dataset("postgres", "postgres://db", None, None, "")
    assert caught.value.field == "name"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", {}),
        ("  ", {}),
        (
            "snowflake=snowflake://acme-prod,postgres=postgres://db:5432",
            {"snowflake": "snowflake://acme-prod", "postgres": "postgres://db:5432"},
        ),
        (
            " Snowflake = Snowflake://ACME-PROD/ ,\n postgres=postgres://db , ",
            {"snowflake": "snowflake://acme-prod", "postgres": "postgres://db:5432"},
        ),
        ("bigquery=bigquery", {"bigquery": "bigquery"}),
        ("spark=s3a://lake", {"spark": "s3://lake"}),
    ],
)
def test_parse_namespace_map(text: str, expected: dict[str, str]) -> None:
    assert parse_namespace_map(text) == expected


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("snowflake", "'snowflake'"),
        ("snowflake=", "'snowflake='"),
        ("=snowflake://a", "'=snowflake://a'"),
        ("snow flake=snowflake://a", "'snow flake=snowflake://a'"),
        ("postgres=postgres://my db", "'postgres=postgres://my db'"),
        ("postgres=postgres://db:x", "'postgres=postgres://db:x'"),
        ("postgres=postgres://a,postgres=postgres://b", "'postgres'"),
    ],
)
def test_parse_namespace_map_names_the_bad_entry(text: str, names: str) -> None:
    with pytest.raises(ValueError, match=re.escape(names)):
        parse_namespace_map(text)


BARE = st.text(alphabet="abcXYZ_$09éßẞ", min_size=1, max_size=6).filter(lambda s: s[0] != "$")
QUOTED = st.text(alphabet='abcXYZ_.$"`[]éß-', min_size=1, max_size=6).map(
    lambda s: '"' + s.replace('"', '""') + '"'
)
SQL_NAMES = st.lists(BARE | QUOTED, min_size=1, max_size=4).map(".".join)


@given(namespace=st.sampled_from(["snowflake://acme-prod", "postgres://db"]), name=SQL_NAMES)
def test_normalise_is_idempotent(namespace: str, name: str) -> None:
    ref = normalise(namespace, name)
    assert normalise(ref.namespace, ref.name) == ref
