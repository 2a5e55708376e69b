package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The body of {@code POST /query/cypher}: a read-only statement, its {@code $parameters}
 * (optional) and the most rows kept ({@code limit}, 1-10,000; the service's default 1,000).
 *
 * <pre>{@code
 * CypherQuery.of("MATCH (a:Asset) WHERE a.type = $type RETURN a.id AS id")
 *     .withParameters(Map.of("type", "table"))
 *     .withLimit(100);
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CypherQuery(String query, Map<String, Object> parameters, Integer limit) {

  public CypherQuery {
    Objects.requireNonNull(query, "query");
    parameters =
        parameters == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }

  public static CypherQuery of(String query) {
    return new CypherQuery(query, null, null);
  }

  public CypherQuery withParameters(Map<String, ?> values) {
    return new CypherQuery(query, new LinkedHashMap<>(values), limit);
  }

  public CypherQuery withLimit(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("limit must be >= 1, got " + value);
    }
    return new CypherQuery(query, parameters, value);
  }
}
