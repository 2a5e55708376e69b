package dev.governance.client.model;

import java.util.List;
import java.util.Objects;

/**
 * The body of {@code PUT /column-tags/{tag}}: the mapping kinds that stop the tag. {@link
 * #stops(MappingKind...)} with none lets the tag through every mapping; {@link #none()} says so.
 *
 * <pre>{@code
 * client.assets().putColumnTagRule("confidential", ColumnTagRuleInput.stops(MappingKind.MASKING));
 * }</pre>
 */
public record ColumnTagRuleInput(List<MappingKind> stops) {

  public ColumnTagRuleInput {
    stops = List.copyOf(Objects.requireNonNull(stops, "stops"));
  }

  public static ColumnTagRuleInput stops(MappingKind... kinds) {
    return new ColumnTagRuleInput(List.of(kinds));
  }

  /** No kind stops the tag: it goes everywhere downstream. */
  public static ColumnTagRuleInput none() {
    return new ColumnTagRuleInput(List.of());
  }
}
