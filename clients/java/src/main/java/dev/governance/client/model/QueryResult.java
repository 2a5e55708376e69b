package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One page of a query's answer. Only the parts the query's return form asked for are filled in
 * (the others are empty, {@code count} null); {@code truncated} says a path query found more
 * paths than the service enumerates; {@code nextCursor} is null on the last page.
 */
public record QueryResult(
    List<QueryNode> nodes,
    List<GraphEdge> edges,
    List<List<String>> paths,
    Long count,
    boolean truncated,
    @JsonProperty("next_cursor") String nextCursor) {

  public QueryResult {
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    edges = edges == null ? List.of() : List.copyOf(edges);
    paths = paths == null ? List.of() : paths.stream().map(List::copyOf).toList();
  }

  public boolean hasNext() {
    return nextCursor != null;
  }
}
