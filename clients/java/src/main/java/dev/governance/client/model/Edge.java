package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/** A lineage edge: data flows from {@code source} into {@code target}. */
public record Edge(
    String source,
    String target,
    String transformation,
    List<String> origins,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt) {

  public Edge {
    origins = origins == null ? List.of() : List.copyOf(origins);
  }
}
