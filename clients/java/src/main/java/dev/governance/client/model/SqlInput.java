package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.List;

/**
 * SQL to ingest as lineage ({@code lineage().ingestSql(...)}): exactly one of {@code sql}
 * (one statement, or a script of statements separated by {@code ;}) and {@code statements} (a
 * query log of 1-10,000 entries), read in a sqlglot {@code dialect} ({@code snowflake},
 * {@code bigquery}, {@code postgres}, {@code redshift}, {@code mysql}, {@code trino},
 * {@code duckdb}, {@code databricks}, {@code spark}, {@code tsql}, ...).
 *
 * <p>Each table name, completed with {@code defaultDatabase} and {@code defaultSchema}, is the
 * dataset {@code (namespace, name)} and resolves to the asset holding it (a placeholder is
 * made when nobody does). Edges get origin {@code sql:<source>} ({@code source} null: the
 * service's {@code api}).
 *
 * <pre>{@code
 * SqlInput.script("snowflake", "snowflake://acme-prod", "insert into mart.revenue select ...")
 *     .withDefaultDatabase("ANALYTICS").withSource("nightly-etl");
 * SqlInput.queryLog("postgres", "postgres://db", List.of(SqlStatement.of(sql, "q-1")));
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SqlInput(
    String dialect,
    String namespace,
    @JsonProperty("default_database") String defaultDatabase,
    @JsonProperty("default_schema") String defaultSchema,
    String source,
    String sql,
    List<SqlStatement> statements) {

  public SqlInput {
    statements = statements == null ? null : List.copyOf(statements);
  }

  /** One statement, or a script of statements separated by {@code ;}. */
  public static SqlInput script(String dialect, String namespace, String sql) {
    return new SqlInput(dialect, namespace, null, null, null, sql, null);
  }

  /** A query log: statements each with an optional query id, user and time. */
  public static SqlInput queryLog(String dialect, String namespace, List<SqlStatement> statements) {
    return new SqlInput(dialect, namespace, null, null, null, null, statements);
  }

  /** A query log of bare statements. */
  public static SqlInput queryLog(String dialect, String namespace, String... statements) {
    return queryLog(dialect, namespace, Arrays.stream(statements).map(SqlStatement::of).toList());
  }

  /** Fills a table name's missing database (catalog, project). */
  public SqlInput withDefaultDatabase(String value) {
    return new SqlInput(dialect, namespace, value, defaultSchema, source, sql, statements);
  }

  /** Fills a table name's missing schema (dataset). */
  public SqlInput withDefaultSchema(String value) {
    return new SqlInput(dialect, namespace, defaultDatabase, value, source, sql, statements);
  }

  /** Names this writer: the edges' origin is {@code sql:<source>} (a job's, a log's name). */
  public SqlInput withSource(String value) {
    return new SqlInput(dialect, namespace, defaultDatabase, defaultSchema, value, sql, statements);
  }
}
