package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A lineage edge: data flows from {@code source} into {@code target}. {@code columns} holds its
 * column mappings by (source, target) column, in listings and when writing the edge.
 */
public record Edge(
    String source,
    String target,
    String transformation,
    List<String> origins,
    List<ColumnMapping> columns,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt) {

  public Edge {
    origins = origins == null ? List.of() : List.copyOf(origins);
    columns = columns == null ? List.of() : List.copyOf(columns);
  }
}
