package dev.governance.client.model;

import java.util.List;
import java.util.Optional;

/**
 * A traversal answer: the root, each reached asset once at its fewest-hop {@code distance},
 * the edges among them in the traversed direction, and whether the node limit cut it short.
 */
public record LineageGraph(
    String root,
    Direction direction,
    int depth,
    List<GraphNode> nodes,
    List<GraphEdge> edges,
    boolean truncated) {

  public LineageGraph {
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    edges = edges == null ? List.of() : List.copyOf(edges);
  }

  /** The node with this id, if it was reached. */
  public Optional<GraphNode> node(String id) {
    return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
  }

  /** The ids of the reached nodes, the root included, nearest first. */
  public List<String> nodeIds() {
    return nodes.stream().map(GraphNode::id).toList();
  }
}
