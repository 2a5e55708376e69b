package dev.governance.client.model;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@code lineage().diff(...)} compares: the neighbourhood of an asset at {@code from} with
 * that at {@code to} (null: now), in a {@code direction} (null: both) to a {@code depth} (null:
 * the service's default, 5), each neighbourhood at most {@code limit} nodes (null: 2,000).
 * Immutable.
 *
 * <pre>{@code
 * client.lineage().diff(id, DiffOptions.from(lastWeek));
 * client.lineage().diff(id, DiffOptions.from(t1).withTo(t2).withDirection(Direction.UPSTREAM).withDepth(3));
 * }</pre>
 */
public record DiffOptions(
    Instant from, Instant to, Direction direction, Integer depth, Integer limit) {

  public DiffOptions {
    Objects.requireNonNull(from, "from: the moment the diff starts from");
    positive("depth", depth);
    positive("limit", limit);
  }

  /** From {@code from} to now, both directions, the default depth and limit. */
  public static DiffOptions from(Instant from) {
    return new DiffOptions(from, null, null, null, null);
  }

  public DiffOptions withTo(Instant value) {
    return new DiffOptions(from, value, direction, depth, limit);
  }

  public DiffOptions withDirection(Direction value) {
    return new DiffOptions(from, to, value, depth, limit);
  }

  public DiffOptions withDepth(int value) {
    return new DiffOptions(from, to, direction, value, limit);
  }

  public DiffOptions withLimit(int value) {
    return new DiffOptions(from, to, direction, depth, value);
  }

  private static void positive(String what, Integer value) {
    if (value != null && value < 1) {
      throw new IllegalArgumentException(what + " must be >= 1, got " + value);
    }
  }
}
