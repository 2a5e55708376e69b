package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Optional;

/**
 * A traversal answer, one page of it: the root (in the first page), each reached asset once at
 * its fewest-hop {@code distance}, the edges in the traversed direction that join one of them to
 * a node of this or an earlier page (so each edge comes in exactly one page), and what the page
 * leaves out. {@code nextCursor} asks for the next page ({@link Traversal#withCursor}) and
 * is null on the last, when {@code truncated} is false; {@code remaining} counts the nodes on
 * each side still to come, {@code hidden} those the walk went through but the filters hide, and
 * {@code capped} the nodes of which the fanout showed only some neighbours. {@code redacted}
 * counts the nodes that are stand-ins for nodes the caller may not read
 * ({@link GraphNode#redacted()}).
 */
public record LineageGraph(
    String root,
    Direction direction,
    int depth,
    List<GraphNode> nodes,
    List<GraphEdge> edges,
    boolean truncated,
    @JsonProperty("next_cursor") String nextCursor,
    SideCounts remaining,
    SideCounts hidden,
    List<CappedNode> capped,
    int redacted) {

  public LineageGraph {
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    edges = edges == null ? List.of() : List.copyOf(edges);
    remaining = remaining == null ? SideCounts.NONE : remaining;
    hidden = hidden == null ? SideCounts.NONE : hidden;
    capped = capped == null ? List.of() : List.copyOf(capped);
  }

  /** A traversal answer with no stand-ins (the fields before redaction came). */
  public LineageGraph(
      String root,
      Direction direction,
      int depth,
      List<GraphNode> nodes,
      List<GraphEdge> edges,
      boolean truncated,
      String nextCursor,
      SideCounts remaining,
      SideCounts hidden,
      List<CappedNode> capped) {
    this(root, direction, depth, nodes, edges, truncated, nextCursor, remaining, hidden, capped, 0);
  }

  /** The node with this id, if it was reached. */
  public Optional<GraphNode> node(String id) {
    return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
  }

  /** The ids of the reached nodes, the root included, nearest first. */
  public List<String> nodeIds() {
    return nodes.stream().map(GraphNode::id).toList();
  }

  /** True when more nodes are left: {@link #nextCursor()} asks for them. */
  public boolean hasNext() {
    return nextCursor != null;
  }
}
