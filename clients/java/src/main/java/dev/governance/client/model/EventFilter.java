package dev.governance.client.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Which events {@code events().list(...)} replays and {@code events().stream(...)} delivers:
 * those after a sequence number, of some types or patterns such as {@code asset.*}. Both
 * optional (from the start of the log, or for the stream from now; every type); immutable.
 *
 * <pre>{@code
 * client.events().list(EventFilter.after(lastSeq).withTypes("asset.*", "quality.*"));
 * client.events().stream(EventFilter.types("lineage.*"));
 * }</pre>
 */
public final class EventFilter {
  private static final EventFilter ALL = new EventFilter(null, List.of());

  private final Long after;
  private final List<String> types;

  private EventFilter(Long after, List<String> types) {
    this.after = after;
    this.types = types;
  }

  /** Every event. */
  public static EventFilter all() {
    return ALL;
  }

  /** The events with a larger {@code seq} than this one. */
  public static EventFilter after(long seq) {
    return ALL.withAfter(seq);
  }

  /** The events of these types or patterns ({@code asset.*}). */
  public static EventFilter types(String... types) {
    return ALL.withTypes(types);
  }

  public EventFilter withAfter(long seq) {
    if (seq < 0) {
      throw new IllegalArgumentException("after must be >= 0, got " + seq);
    }
    return new EventFilter(seq, types);
  }

  public EventFilter withTypes(String... types) {
    return withTypes(Arrays.asList(types));
  }

  public EventFilter withTypes(Collection<String> types) {
    return new EventFilter(after, List.copyOf(types));
  }

  /** The sequence number the events come after; empty for the start (the stream: now). */
  public OptionalLong after() {
    return after == null ? OptionalLong.empty() : OptionalLong.of(after);
  }

  /** Types or patterns; empty for every type. */
  public List<String> types() {
    return types;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EventFilter f && Objects.equals(after, f.after) && types.equals(f.types);
  }

  @Override
  public int hashCode() {
    return Objects.hash(after, types);
  }

  @Override
  public String toString() {
    return "EventFilter[after=" + after + ", types=" + types + "]";
  }
}
