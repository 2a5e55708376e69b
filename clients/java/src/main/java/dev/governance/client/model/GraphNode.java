package dev.governance.client.model;

import java.util.List;

/**
 * An asset reached by a traversal. {@code direction} is {@code root}, {@code upstream} or
 * {@code downstream}; {@code distance} the fewest hops from the root.
 */
public record GraphNode(
    String id,
    String name,
    String type,
    String platform,
    List<String> tags,
    boolean placeholder,
    int distance,
    String direction) {

  public GraphNode {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  public boolean isRoot() {
    return "root".equals(direction);
  }
}
