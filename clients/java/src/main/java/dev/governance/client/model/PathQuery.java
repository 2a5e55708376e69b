package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The shortest path(s) {@code from} one asset {@code to} another. Null fields take the service
 * defaults: direction downstream ({@code from} feeds {@code to}), {@code maxDepth} 10, one
 * shortest path rather than all of them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PathQuery(
    String from,
    String to,
    Direction direction,
    @JsonProperty("max_depth") Integer maxDepth,
    @JsonProperty("all_shortest") Boolean allShortest,
    QueryFilter through) {

  public static PathQuery between(String from, String to) {
    return new PathQuery(from, to, null, null, null, null);
  }

  public PathQuery withDirection(Direction value) {
    return new PathQuery(from, to, value, maxDepth, allShortest, through);
  }

  public PathQuery withMaxDepth(Integer value) {
    return new PathQuery(from, to, direction, value, allShortest, through);
  }

  /** Every shortest path, not just one (at most 10,000; then the answer is truncated). */
  public PathQuery withAllShortest(Boolean value) {
    return new PathQuery(from, to, direction, maxDepth, value, through);
  }

  public PathQuery withThrough(QueryFilter value) {
    return new PathQuery(from, to, direction, maxDepth, allShortest, value);
  }
}
