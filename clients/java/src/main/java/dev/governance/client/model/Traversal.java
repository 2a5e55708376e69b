package dev.governance.client.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How far a lineage traversal goes: its {@code depth} (hops, 1-50; the service's default 5)
 * and {@code limit} (nodes, root included, 1-10,000; default 2,000; past it the answer is
 * {@code truncated}), and the moment it reads the graph at ({@code asOf}; none: now). All
 * optional; immutable.
 *
 * <pre>{@code
 * client.lineage().downstream(id, Traversal.depth(3));
 * client.lineage().graph(id, Direction.BOTH, Traversal.depth(2).withLimit(500));
 * client.lineage().columnUpstream(assetId, "order_id", Traversal.limit(100));
 * client.lineage().upstream(id, Traversal.asOf(Instant.parse("2026-11-03T09:00:00Z")));
 * }</pre>
 */
public final class Traversal {
  private static final Traversal DEFAULTS = new Traversal(null, null, null);

  private final Integer depth;
  private final Integer limit;
  private final Instant asOf;

  private Traversal(Integer depth, Integer limit, Instant asOf) {
    this.depth = depth;
    this.limit = limit;
    this.asOf = asOf;
  }

  /** The service's defaults for both, now. */
  public static Traversal defaults() {
    return DEFAULTS;
  }

  /** At most {@code depth} hops from the root (1-50). */
  public static Traversal depth(int depth) {
    return DEFAULTS.withDepth(depth);
  }

  /** At most {@code limit} nodes, root included (1-10,000). */
  public static Traversal limit(int limit) {
    return DEFAULTS.withLimit(limit);
  }

  /**
   * The graph as it stood at {@code moment} (sent in UTC to the millisecond); a root that did
   * not exist then is {@link dev.governance.client.exception.NotFoundException}.
   */
  public static Traversal asOf(Instant moment) {
    return DEFAULTS.withAsOf(moment);
  }

  public Traversal withDepth(int value) {
    return new Traversal(positive("depth", value), limit, asOf);
  }

  public Traversal withLimit(int value) {
    return new Traversal(depth, positive("limit", value), asOf);
  }

  /** The graph as it stood at {@code moment}; null reads it as it is now. */
  public Traversal withAsOf(Instant moment) {
    return new Traversal(depth, limit, moment);
  }

  /** The depth asked for; empty for the service's default. */
  public OptionalInt depth() {
    return depth == null ? OptionalInt.empty() : OptionalInt.of(depth);
  }

  /** The node limit asked for; empty for the service's default. */
  public OptionalInt limit() {
    return limit == null ? OptionalInt.empty() : OptionalInt.of(limit);
  }

  /** The moment asked for; empty for now. */
  public Optional<Instant> asOf() {
    return Optional.ofNullable(asOf);
  }

  private static int positive(String what, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(what + " must be >= 1, got " + value);
    }
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Traversal t
        && Objects.equals(depth, t.depth)
        && Objects.equals(limit, t.limit)
        && Objects.equals(asOf, t.asOf);
  }

  @Override
  public int hashCode() {
    return Objects.hash(depth, limit, asOf);
  }

  @Override
  public String toString() {
    return "Traversal[depth=" + depth + ", limit=" + limit + ", asOf=" + asOf + "]";
  }
}
