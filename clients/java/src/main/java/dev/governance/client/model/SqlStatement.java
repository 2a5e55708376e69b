package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * One entry of a query log for {@code lineage().ingestSql(...)}: the statement, and
 * optionally the warehouse's query id (echoed in {@link SqlResult.Failure#queryId()}), the
 * user who ran it and when (any text up to 256 characters).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SqlStatement(
    String sql, @JsonProperty("query_id") String queryId, String user, String timestamp) {

  public static SqlStatement of(String sql) {
    return new SqlStatement(sql, null, null, null);
  }

  public static SqlStatement of(String sql, String queryId) {
    return new SqlStatement(sql, queryId, null, null);
  }

  public SqlStatement withQueryId(String value) {
    return new SqlStatement(sql, value, user, timestamp);
  }

  public SqlStatement withUser(String value) {
    return new SqlStatement(sql, queryId, value, timestamp);
  }

  public SqlStatement withTimestamp(String value) {
    return new SqlStatement(sql, queryId, user, value);
  }

  /** The time as RFC 3339 ({@code 2026-01-31T09:00:00Z}). */
  public SqlStatement withTimestamp(Instant value) {
    return withTimestamp(value == null ? null : value.toString());
  }
}
