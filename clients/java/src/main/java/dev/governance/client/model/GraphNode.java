package dev.governance.client.model;

import java.util.List;

/**
 * An asset reached by a traversal. {@code direction} is {@code root}, {@code upstream} or
 * {@code downstream}; {@code distance} the fewest hops from the root.
 *
 * <p>A node the caller may not read (in a private domain) comes as a stand-in: {@code redacted}
 * is true, {@code id} is {@code redacted:<n>} (numbering the stand-ins of one answer; edges name
 * it too), {@code team} owns its domain (whom to ask for access), and only {@code distance} is
 * set besides.
 */
public record GraphNode(
    String id,
    String name,
    String type,
    String platform,
    List<String> tags,
    boolean placeholder,
    int distance,
    String direction,
    boolean redacted,
    String team) {

  public GraphNode {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  /** A readable node (the fields before redaction came). */
  public GraphNode(
      String id,
      String name,
      String type,
      String platform,
      List<String> tags,
      boolean placeholder,
      int distance,
      String direction) {
    this(id, name, type, platform, tags, placeholder, distance, direction, false, null);
  }

  public boolean isRoot() {
    return "root".equals(direction);
  }
}
