package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * How the lineage around an asset changed between two moments, over the union of both
 * neighbourhoods: {@code added} holds the nodes and edges present at {@code to} and not at
 * {@code from} (as shown at {@code to}), {@code removed} the other way round (as shown at
 * {@code from}), in the shapes of a traversal; {@code changed} the edges present at both whose
 * transformation changed. {@code truncated}: either neighbourhood was cut at the node limit.
 */
public record LineageDiff(
    String root,
    Direction direction,
    int depth,
    Instant from,
    Instant to,
    Changes added,
    Changes removed,
    Changed changed,
    boolean truncated) {

  public LineageDiff {
    added = added == null ? Changes.NONE : added;
    removed = removed == null ? Changes.NONE : removed;
    changed = changed == null ? new Changed(List.of()) : changed;
  }

  /** The nodes and edges one side has and the other lacks. */
  public record Changes(List<GraphNode> nodes, List<GraphEdge> edges) {
    static final Changes NONE = new Changes(List.of(), List.of());

    public Changes {
      nodes = nodes == null ? List.of() : List.copyOf(nodes);
      edges = edges == null ? List.of() : List.copyOf(edges);
    }

    /** True when this side has nothing the other lacks. */
    public boolean isEmpty() {
      return nodes.isEmpty() && edges.isEmpty();
    }
  }

  /** The edges present at both moments whose transformation changed. */
  public record Changed(List<ChangedEdge> edges) {
    public Changed {
      edges = edges == null ? List.of() : List.copyOf(edges);
    }
  }

  /** An edge whose {@code transformation} (at {@code to}) was {@code previousTransformation}. */
  public record ChangedEdge(
      String source,
      String target,
      String transformation,
      @JsonProperty("previous_transformation") String previousTransformation) {}
}
