package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A question in the service's JSON query language ({@code POST /query}): a start, optionally
 * with a {@link Traverse}, or a {@link PathQuery}. Immutable; each {@code with...} returns a
 * copy.
 *
 * <pre>{@code
 * Query dashboards = Query.startAt("warehouse.orders")
 *     .withTraverse(Traverse.downstream().withMaxDepth(10)
 *         .withWhere(QueryFilter.builder().type("dashboard").build()))
 *     .withReturn(QueryReturn.NODES);
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Query(
    Start start,
    Traverse traverse,
    PathQuery path,
    @JsonProperty("return") QueryReturn returnForm,
    Integer limit,
    String cursor) {

  /** Start from these asset ids (unknown ids match nothing). */
  public static Query startAt(String... ids) {
    return startAt(Arrays.asList(ids));
  }

  public static Query startAt(Collection<String> ids) {
    return new Query(new Start(List.copyOf(ids), null), null, null, null, null, null);
  }

  /** Start from every asset the filter matches. */
  public static Query startWhere(QueryFilter where) {
    return new Query(new Start(null, where), null, null, null, null, null);
  }

  /** The shortest path(s) between two assets. */
  public static Query shortestPath(PathQuery path) {
    return new Query(null, null, path, null, null, null);
  }

  public Query withTraverse(Traverse value) {
    return new Query(start, value, path, returnForm, limit, cursor);
  }

  public Query withReturn(QueryReturn value) {
    return new Query(start, traverse, path, value, limit, cursor);
  }

  /** Items (nodes, edges or paths) per page, 1-10,000 (default 100). */
  public Query withLimit(int value) {
    return new Query(start, traverse, path, returnForm, value, cursor);
  }

  /** A previous answer's {@code nextCursor}; the rest of the query must stay the same. */
  public Query withCursor(String value) {
    return new Query(start, traverse, path, returnForm, limit, value);
  }

  /** Where a query starts: {@code ids} or {@code where}, one of the two. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Start(List<String> ids, QueryFilter where) {}
}
