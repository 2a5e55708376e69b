package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How a query walks lineage from its start assets. Null fields take the service defaults:
 * direction both, {@code minDepth} 1 (0 adds the start assets at distance 0), {@code maxDepth}
 * 5 (at most 50). {@code where} picks the reached assets that are returned; {@code through}
 * the assets a path may pass through (its intermediate assets only).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Traverse(
    Direction direction,
    @JsonProperty("min_depth") Integer minDepth,
    @JsonProperty("max_depth") Integer maxDepth,
    QueryFilter where,
    QueryFilter through) {

  public static Traverse downstream() {
    return new Traverse(Direction.DOWNSTREAM, null, null, null, null);
  }

  public static Traverse upstream() {
    return new Traverse(Direction.UPSTREAM, null, null, null, null);
  }

  /** Both sides, each walked separately (never up and then down to siblings). */
  public static Traverse both() {
    return new Traverse(Direction.BOTH, null, null, null, null);
  }

  public Traverse withMinDepth(Integer value) {
    return new Traverse(direction, value, maxDepth, where, through);
  }

  public Traverse withMaxDepth(Integer value) {
    return new Traverse(direction, minDepth, value, where, through);
  }

  public Traverse withWhere(QueryFilter value) {
    return new Traverse(direction, minDepth, maxDepth, value, through);
  }

  public Traverse withThrough(QueryFilter value) {
    return new Traverse(direction, minDepth, maxDepth, where, value);
  }
}
