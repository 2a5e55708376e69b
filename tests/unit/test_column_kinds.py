"""What a column mapping does to its values, read from OpenLineage facets and from SQL
expressions as each dialect writes them back (the tracer renders the expression in the
statement's dialect, and that text is what gets classified)."""

from __future__ import annotations

import pytest
import sqlglot

from service.domain import column_kinds

DIALECTS = ("postgres", "snowflake", "bigquery", "duckdb", "spark", "tsql", "mysql", "trino")
EXPECTED = {
    "email": "identity",
    "u.email AS contact": "identity",
    "CAST(email AS VARCHAR(100))": "identity",
    "md5(email)": "masking",
    "sha2(email, 256)": "masking",
    "upper(md5(email))": "masking",
    "count(email)": "aggregation",
    "count(DISTINCT email)": "aggregation",
    "avg(length(email))": "aggregation",
    "upper(email)": "transformation",
    "concat(email, '@')": "transformation",
    "max(email)": "transformation",
    "min(email)": "transformation",
}


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(("sql", "kind"), sorted(EXPECTED.items()))
def test_an_expression_round_tripped_through_a_dialect_keeps_its_kind(
    dialect: str, sql: str, kind: str
) -> None:
    written = sqlglot.parse_one(sql).sql(dialect=dialect)
    assert column_kinds.of_sql(written, "email", dialect) == kind, written


def test_a_plain_copy_is_identity_and_unparseable_text_unknown() -> None:
    assert column_kinds.of_sql(None) == "identity"
    assert column_kinds.of_sql("select from where (") == "unknown"
    assert column_kinds.of_text(None) == "unknown"
    assert column_kinds.of_text("copied by hand!!") == "unknown"


def test_each_source_column_of_one_expression_is_judged_by_its_own_uses() -> None:
    expression = "concat(md5(email), name)"
    assert column_kinds.of_sql(expression, "email") == "masking"
    assert column_kinds.of_sql(expression, "name") == "transformation"
    assert column_kinds.of_sql("sum(amount) OVER (PARTITION BY region)", "amount") == (
        "aggregation"
    )
    assert column_kinds.of_sql("sum(amount) OVER (PARTITION BY region)", "region") == (
        "transformation"
    )


def test_value_returning_aggregates_carry_and_hashes_of_every_spelling_mask() -> None:
    for carrying in ("string_agg(email, ',')", "array_agg(email)", "any_value(email)"):
        assert column_kinds.of_sql(carrying, "email", "postgres") == "transformation"
    for masking in ("hash(email)", "mask(email)", "farm_fingerprint(email)", "sha256(email)"):
        assert column_kinds.of_sql(masking, "email") == "masking"


@pytest.mark.parametrize(
    ("type_", "subtype", "masking", "kind"),
    [
        ("DIRECT", "IDENTITY", None, "identity"),
        ("DIRECT", "TRANSFORMATION", False, "transformation"),
        ("DIRECT", "TRANSFORMATION", True, "masking"),
        ("DIRECT", "AGGREGATION", None, "aggregation"),
        ("INDIRECT", "JOIN", None, "indirect"),
        ("INDIRECT", "FILTER", True, "masking"),
        ("SOMETHING", None, None, "unknown"),
    ],
)
def test_openlineage_types_subtypes_and_the_masking_flag(
    type_: str, subtype: str | None, masking: bool | None, kind: str
) -> None:
    assert column_kinds.of_openlineage(type_, subtype, masking) == kind


def test_the_most_revealing_of_several_transformations_wins() -> None:
    assert column_kinds.most_revealing(["indirect", "identity"]) == "identity"
    assert column_kinds.most_revealing(["masking", "aggregation"]) == "aggregation"
    assert column_kinds.most_revealing([]) == "unknown"
    assert column_kinds.of_text("DIRECT/IDENTITY; INDIRECT/JOIN: on id") == "identity"
    assert column_kinds.of_text("INDIRECT/GROUP_BY") == "indirect"
    assert column_kinds.of_legacy_type("MASKED") == "masking"
