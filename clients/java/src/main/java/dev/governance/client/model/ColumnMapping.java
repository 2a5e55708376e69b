package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Column lineage along an edge: column {@code source} of the edge's source asset feeds column
 * {@code target} of its target asset. As input (in {@link EdgeInput#columns()}) only
 * {@code source}, {@code target} and an optional {@code transformation} are sent; the service
 * answers with the {@code origins} that wrote the mapping.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ColumnMapping(String source, String target, String transformation, List<String> origins) {

  public ColumnMapping {
    origins = origins == null ? null : List.copyOf(origins);
  }

  /** A mapping to write: {@code source} column feeds {@code target} column. */
  public static ColumnMapping of(String source, String target) {
    return new ColumnMapping(source, target, null, null);
  }

  /** A mapping to write, with how the target is computed (e.g. {@code upper(name)}). */
  public static ColumnMapping of(String source, String target, String transformation) {
    return new ColumnMapping(source, target, transformation, null);
  }
}
