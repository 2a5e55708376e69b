package dev.governance.client.model;

import java.util.List;
import java.util.Optional;

/**
 * The lineage of one column: each reached column once, at its fewest-hop {@code distance},
 * nearest first (the root at 0), the column mappings among them in data-flow direction, and
 * whether the node limit cut it short. {@code direction} is {@link Direction#UPSTREAM} or
 * {@link Direction#DOWNSTREAM}.
 */
public record ColumnGraph(
    ColumnRef root,
    Direction direction,
    int depth,
    List<ColumnNode> nodes,
    List<ColumnEdge> edges,
    boolean truncated) {

  public ColumnGraph {
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    edges = edges == null ? List.of() : List.copyOf(edges);
  }

  /** The node for this column, if it was reached. */
  public Optional<ColumnNode> node(String asset, String column) {
    return nodes.stream()
        .filter(n -> n.asset().equals(asset) && n.column().equals(column))
        .findFirst();
  }
}
