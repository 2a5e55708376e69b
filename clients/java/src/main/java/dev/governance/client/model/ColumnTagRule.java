package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A column tag's rule: the mapping kinds that {@code stops} it on its way downstream. {@code
 * isDefault} is true while the tag has no rule of its own (it then stops at masking, aggregation
 * and indirect mappings) and {@code updatedAt} is then null.
 */
public record ColumnTagRule(
    String tag,
    List<MappingKind> stops,
    @JsonProperty("default") boolean isDefault,
    @JsonProperty("updated_at") Instant updatedAt) {

  public ColumnTagRule {
    stops = stops == null ? List.of() : List.copyOf(stops);
  }
}
