package dev.governance.client.model;

import java.util.List;

/** An asset a query answered; {@code distance} is the fewest hops from the start (or along the path). */
public record QueryNode(
    String id,
    String name,
    String type,
    String platform,
    List<String> tags,
    boolean placeholder,
    int distance) {

  public QueryNode {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }
}
