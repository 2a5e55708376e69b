package dev.governance.client;

import dev.governance.client.model.CypherQuery;
import dev.governance.client.model.CypherResult;
import dev.governance.client.model.GraphEdge;
import dev.governance.client.model.Page;
import dev.governance.client.model.Query;
import dev.governance.client.model.QueryNode;
import dev.governance.client.model.QueryResult;
import dev.governance.client.model.QueryReturn;
import java.util.List;
import java.util.function.Function;

/**
 * {@code /query}: the JSON query language ({@code read} scope) and read-only Cypher
 * ({@code admin} scope). Obtain it with {@link GovernanceClient#query()}.
 *
 * <p>A malformed query is a {@code ValidationException} naming the field (e.g.
 * {@code body.traverse.max_depth}); one running past the service's query timeout is a
 * {@code ValidationException} with code {@code query_timeout}.
 */
public final class QueryService {
  private final Requester http;

  QueryService(Requester http) {
    this.http = http;
  }

  /**
   * One page of the query's answer. The query only reads, so it is retried like a GET (and
   * sends no {@code Idempotency-Key}).
   */
  public QueryResult run(Query query) {
    return runWithResponse(query, RequestOptions.DEFAULTS).value();
  }

  public Response<QueryResult> runWithResponse(Query query, RequestOptions options) {
    return http.call(
        ApiCall.post("/query").json(query).replay(ApiCall.Replay.IDEMPOTENT).options(options),
        QueryResult.class);
  }

  /**
   * Every page of the query's answer, one item per page: the same query is sent again with each
   * {@code nextCursor} while iteration goes on. Nothing is sent before iteration.
   */
  public PagedIterable<QueryResult> pages(Query query) {
    return pages(query, RequestOptions.DEFAULTS);
  }

  /** As {@link #pages(Query)}, each page sent with {@code options}. */
  public PagedIterable<QueryResult> pages(Query query, RequestOptions options) {
    return items(query, null, List::of, options);
  }

  /** Every node of the answer, paged automatically (the return form is nodes unless set). */
  public PagedIterable<QueryNode> nodes(Query query) {
    return nodes(query, RequestOptions.DEFAULTS);
  }

  public PagedIterable<QueryNode> nodes(Query query, RequestOptions options) {
    return items(query, QueryReturn.NODES, QueryResult::nodes, options);
  }

  /** Every edge of the answer, paged automatically (the return form is edges unless set). */
  public PagedIterable<GraphEdge> edges(Query query) {
    return edges(query, RequestOptions.DEFAULTS);
  }

  public PagedIterable<GraphEdge> edges(Query query, RequestOptions options) {
    return items(query, QueryReturn.EDGES, QueryResult::edges, options);
  }

  /** Every path of a path query, as asset ids, paged automatically. */
  public PagedIterable<List<String>> paths(Query query) {
    return paths(query, RequestOptions.DEFAULTS);
  }

  public PagedIterable<List<String>> paths(Query query, RequestOptions options) {
    return items(query, QueryReturn.PATHS, QueryResult::paths, options);
  }

  /** Pages of the query (with {@code form} as its return form unless it has one), picked apart. */
  private <T> PagedIterable<T> items(
      Query query, QueryReturn form, Function<QueryResult, List<T>> pick, RequestOptions options) {
    Query asked = query.returnForm() == null && form != null ? query.withReturn(form) : query;
    PagedIterable<T> all =
        new PagedIterable<>(
            (cursor, size) -> {
              Query page = size == null ? asked : asked.withLimit(size);
              QueryResult answer = runWithResponse(page.withCursor(cursor), options).value();
              return new Page<>(pick.apply(answer), answer.nextCursor());
            });
    return asked.cursor() == null ? all : all.fromCursor(asked.cursor());
  }

  /** {@link #cypher(CypherQuery)} of a statement without parameters, keeping up to 1,000 rows. */
  public CypherResult cypher(String query) {
    return cypher(CypherQuery.of(query));
  }

  /**
   * Runs a read-only Cypher statement ({@code POST /query/cypher}; {@code admin} scope) in a
   * READ transaction. A write, {@code LOAD CSV} or an administrative procedure is a
   * {@code ValidationException} with code {@code forbidden_query} and nothing runs; text Neo4j
   * cannot run is code {@code invalid_query}. Retried like a GET. Past the query's limit
   * (default 1,000 rows) the answer is {@code truncated}.
   */
  public CypherResult cypher(CypherQuery query) {
    return cypherWithResponse(query, RequestOptions.DEFAULTS).value();
  }

  public Response<CypherResult> cypherWithResponse(CypherQuery query, RequestOptions options) {
    return http.call(
        ApiCall.post("/query/cypher").json(query).replay(ApiCall.Replay.IDEMPOTENT).options(options),
        CypherResult.class);
  }
}
