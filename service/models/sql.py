"""SQL ingestion bodies: one statement, a script, or a query log, and the answer."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, StringConstraints, model_validator

from service.models.common import ResponseModel, StrictModel
from service.models.datasets import DatasetIdPart
from service.models.openlineage import Counts

MAX_SQL_STATEMENTS = 10_000
MAX_SQL_CHARS = 1 << 20
Sql = Annotated[str, StringConstraints(min_length=1, max_length=MAX_SQL_CHARS)]
Short = Annotated[str, StringConstraints(min_length=1, max_length=256)]
Part = Annotated[str, StringConstraints(min_length=1, max_length=256)]
SourceName = Annotated[
    str, StringConstraints(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:/@-]*$")
]


class LoggedStatement(StrictModel):
    """One entry of a query log (what a warehouse's query history exports)."""

    sql: Sql
    query_id: Short | None = None
    user: Short | None = None
    timestamp: Short | None = None


class SqlIngest(StrictModel):
    """`sql` or `statements`, exactly one (the schema says so too)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        json_schema_extra={
            "oneOf": [
                {"required": ["sql"], "properties": {"sql": {"type": "string"}}},
                {"required": ["statements"], "properties": {"statements": {"type": "array"}}},
            ]
        },
    )

    dialect: Short = Field(
        description="sqlglot dialect: snowflake, bigquery, postgres, redshift, mysql, trino, "
        "duckdb, databricks, spark, hive, tsql, ..."
    )
    namespace: DatasetIdPart = Field(
        description="where the tables live, as OpenLineage names it (e.g. "
        "`snowflake://acme-prod`): each table `db.schema.table` is the dataset "
        "(namespace, db.schema.table), resolved to the asset holding it"
    )
    default_database: Part | None = Field(
        default=None, description="fills a table name's missing database (catalog, project)"
    )
    default_schema: Part | None = Field(
        default=None, description="fills a table name's missing schema (dataset)"
    )
    source: SourceName = Field(
        default="api",
        description="names this writer: the edges' origin is `sql:<source>` (a query log's "
        "name, a job's name)",
    )
    sql: Sql | None = Field(
        default=None, description="one statement, or a script of statements separated by `;`"
    )
    statements: (
        Annotated[list[LoggedStatement], Field(min_length=1, max_length=MAX_SQL_STATEMENTS)] | None
    ) = Field(
        default=None,
        description="a query log: 1-10,000 statements, each with optional id, user, time",
    )

    @model_validator(mode="after")
    def _one_of(self) -> SqlIngest:
        if (self.sql is None) == (self.statements is None):
            raise ValueError("give exactly one of sql and statements")
        return self


class SqlFailure(ResponseModel):
    index: int = Field(description="the statement's position, from 0")
    message: str = Field(description="why it was not read: the parser's or resolver's words")
    query_id: str | None = None


class SqlStatementCounts(ResponseModel):
    received: int
    with_lineage: int = Field(description="statements that write a table from others")
    without_lineage: int = Field(description="reads and DDL: parsed, nothing to write")
    failed: int = Field(description="not parsed or not resolved; listed in `failures`")


class SqlResult(ResponseModel):
    origin: str
    statements: SqlStatementCounts
    edges: Counts
    column_mappings: Counts
    assets_created: int = Field(description="placeholders made for tables no asset holds")
    failures: list[SqlFailure]
    warnings: list[str]
