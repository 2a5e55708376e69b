package dev.governance.client.model;

import java.util.List;

/**
 * Why a column holds {@code tag}: {@code from} is the column that holds it directly, {@code path}
 * the column lineage it came by, from that column to this one, over the fewest mappings.
 */
public record InheritedTag(String tag, ColumnRef from, List<Step> path) {

  public InheritedTag {
    path = path == null ? List.of() : List.copyOf(path);
  }

  /**
   * One column on the path; {@code kind} is that of the mapping into it, null for the tagged
   * column the path starts at.
   */
  public record Step(String asset, String column, MappingKind kind) {}
}
