package dev.governance.client.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How far a lineage traversal goes and what it shows: its {@code depth} (hops, 1-50; the
 * service's default 5) and {@code limit} (nodes in one page, root included, 1-10,000; default
 * 2,000; past it the answer has a {@code nextCursor}), the moment it reads the graph at ({@code
 * asOf}; none: now), the page it asks for ({@code cursor}: a page's {@link
 * LineageGraph#nextCursor()}), the assets it shows ({@code types}, {@code platforms}, {@code
 * tags}, {@code owners}: any value of one filter, every filter given; the walk still goes through
 * the others) and the most neighbours shown of any one node ({@code fanout}). All optional;
 * immutable. The filters and the fanout do not go with {@code asOf} (the service answers a
 * {@link dev.governance.client.exception.ValidationException}). Column traversals take only
 * depth, limit and asOf, and refuse the rest.
 *
 * <pre>{@code
 * client.lineage().downstream(id, Traversal.depth(3));
 * client.lineage().graph(id, Direction.BOTH, Traversal.depth(2).withLimit(500));
 * client.lineage().columnUpstream(assetId, "order_id", Traversal.limit(100));
 * client.lineage().upstream(id, Traversal.asOf(Instant.parse("2026-11-03T09:00:00Z")));
 * client.lineage().graphPages(id, Direction.DOWNSTREAM, Traversal.limit(200).withTypes("dashboard"));
 * }</pre>
 */
public final class Traversal {
  private static final Traversal DEFAULTS =
      new Traversal(null, null, null, null, Filters.NONE, null);

  private final Integer depth;
  private final Integer limit;
  private final Instant asOf;
  private final String cursor;
  private final Filters filters;
  private final Integer fanout;

  /** The values each filter shows; an empty list does not filter. */
  private record Filters(
      List<String> types, List<String> platforms, List<String> tags, List<String> owners) {
    static final Filters NONE = new Filters(List.of(), List.of(), List.of(), List.of());
  }

  private Traversal(
      Integer depth, Integer limit, Instant asOf, String cursor, Filters filters, Integer fanout) {
    this.depth = depth;
    this.limit = limit;
    this.asOf = asOf;
    this.cursor = cursor;
    this.filters = filters;
    this.fanout = fanout;
  }

  /** The service's defaults for both, now. */
  public static Traversal defaults() {
    return DEFAULTS;
  }

  /** At most {@code depth} hops from the root (1-50). */
  public static Traversal depth(int depth) {
    return DEFAULTS.withDepth(depth);
  }

  /** At most {@code limit} nodes in one page, root included (1-10,000). */
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
    return new Traversal(positive("depth", value), limit, asOf, cursor, filters, fanout);
  }

  public Traversal withLimit(int value) {
    return new Traversal(depth, positive("limit", value), asOf, cursor, filters, fanout);
  }

  /** The graph as it stood at {@code moment}; null reads it as it is now. */
  public Traversal withAsOf(Instant moment) {
    return new Traversal(depth, limit, moment, cursor, filters, fanout);
  }

  /**
   * The page after the one that gave {@code value} ({@link LineageGraph#nextCursor()}), asked
   * for with the same other settings; null asks for the first page.
   */
  public Traversal withCursor(String value) {
    return new Traversal(depth, limit, asOf, value, filters, fanout);
  }

  /** Shows only assets of one of these types ({@code table}, {@code dashboard}, ...). */
  public Traversal withTypes(String... values) {
    return with(new Filters(listOf("types", values), filters.platforms, filters.tags, filters.owners));
  }

  /** Shows only assets on one of these platforms. */
  public Traversal withPlatforms(String... values) {
    return with(new Filters(filters.types, listOf("platforms", values), filters.tags, filters.owners));
  }

  /** Shows only assets carrying one of these tags. */
  public Traversal withTags(String... values) {
    return with(new Filters(filters.types, filters.platforms, listOf("tags", values), filters.owners));
  }

  /** Shows only assets owned by one of these owners. */
  public Traversal withOwners(String... values) {
    return with(new Filters(filters.types, filters.platforms, filters.tags, listOf("owners", values)));
  }

  /**
   * Shows at most {@code value} neighbours of any one node; the nodes that had more are listed
   * in {@link LineageGraph#capped()}.
   */
  public Traversal withFanout(int value) {
    return new Traversal(depth, limit, asOf, cursor, filters, positive("fanout", value));
  }

  private Traversal with(Filters value) {
    return new Traversal(depth, limit, asOf, cursor, value, fanout);
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

  /** The cursor of the page asked for; empty for the first page. */
  public Optional<String> cursor() {
    return Optional.ofNullable(cursor);
  }

  public List<String> types() {
    return filters.types;
  }

  public List<String> platforms() {
    return filters.platforms;
  }

  public List<String> tags() {
    return filters.tags;
  }

  public List<String> owners() {
    return filters.owners;
  }

  /** The fanout asked for; empty for none. */
  public OptionalInt fanout() {
    return fanout == null ? OptionalInt.empty() : OptionalInt.of(fanout);
  }

  private static int positive(String what, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(what + " must be >= 1, got " + value);
    }
    return value;
  }

  private static List<String> listOf(String what, String... values) {
    Objects.requireNonNull(values, what);
    for (String value : values) {
      if (value == null || value.isEmpty()) {
        throw new IllegalArgumentException(what + " must not hold a null or empty value");
      }
    }
    return List.of(values);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Traversal t
        && Objects.equals(depth, t.depth)
        && Objects.equals(limit, t.limit)
        && Objects.equals(asOf, t.asOf)
        && Objects.equals(cursor, t.cursor)
        && filters.equals(t.filters)
        && Objects.equals(fanout, t.fanout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(depth, limit, asOf, cursor, filters, fanout);
  }

  @Override
  public String toString() {
    return "Traversal[depth=" + depth + ", limit=" + limit + ", asOf=" + asOf + ", cursor="
        + cursor + ", types=" + filters.types + ", platforms=" + filters.platforms + ", tags="
        + filters.tags + ", owners=" + filters.owners + ", fanout=" + fanout + "]";
  }
}
