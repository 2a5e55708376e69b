package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What an origin let go of when a replacement ({@link BulkOptions#replace()}) made the request
 * its whole edge set: the edges (and column mappings) it asserted before and not now, and of
 * those the ones no other origin asserts, which left the graph.
 */
public record Retired(
    long edges,
    @JsonProperty("edges_removed") long edgesRemoved,
    @JsonProperty("column_mappings") long columnMappings,
    @JsonProperty("column_mappings_removed") long columnMappingsRemoved) {

  /** The sum of two answers; {@code other} may be null. */
  public Retired plus(Retired other) {
    if (other == null) {
      return this;
    }
    return new Retired(
        edges + other.edges,
        edgesRemoved + other.edgesRemoved,
        columnMappings + other.columnMappings,
        columnMappingsRemoved + other.columnMappingsRemoved);
  }
}
