package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer to {@code lineage().ingestSql(...)}: the edges' {@code origin}
 * ({@code sql:<source>}), how the statements went, edges and column mappings written (new or
 * already there), placeholder assets made for tables no asset holds, the statements that could
 * not be read ({@code failures}, by index) and warnings.
 */
public record SqlResult(
    String origin,
    Statements statements,
    Counts edges,
    @JsonProperty("column_mappings") Counts columnMappings,
    @JsonProperty("assets_created") long assetsCreated,
    List<Failure> failures,
    List<String> warnings) {

  public SqlResult {
    edges = edges == null ? Counts.ZERO : edges;
    columnMappings = columnMappings == null ? Counts.ZERO : columnMappings;
    failures = failures == null ? List.of() : List.copyOf(failures);
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /**
   * Statements received; those that write a table from others ({@code withLineage}); reads
   * and DDL, parsed with nothing to write ({@code withoutLineage}); and those not parsed or
   * not resolved ({@code failed}, listed in {@link #failures()}).
   */
  public record Statements(
      long received,
      @JsonProperty("with_lineage") long withLineage,
      @JsonProperty("without_lineage") long withoutLineage,
      long failed) {}

  /**
   * A statement that wrote nothing: its position from 0 in the script or log, the parser's or
   * resolver's message, and its query id when the log gave one.
   */
  public record Failure(int index, String message, @JsonProperty("query_id") String queryId) {}
}
