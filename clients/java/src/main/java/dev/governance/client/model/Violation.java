package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * One asset breaking a policy: why, since when, and for the lineage kinds the offending
 * {@code path} of asset ids (empty otherwise).
 */
public record Violation(
    @JsonProperty("asset_id") String assetId,
    String reason,
    List<String> path,
    @JsonProperty("opened_at") Instant openedAt) {

  public Violation {
    path = path == null ? List.of() : List.copyOf(path);
  }
}
