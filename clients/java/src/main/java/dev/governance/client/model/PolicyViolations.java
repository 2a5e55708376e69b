package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * One page of a policy's open violations, ordered by asset id, as its latest evaluation
 * ({@code evaluatedAt}; null before the first) stored them.
 */
public record PolicyViolations(
    @JsonProperty("policy_id") String policyId,
    @JsonProperty("evaluated_at") Instant evaluatedAt,
    List<Violation> violations,
    @JsonProperty("next_cursor") String nextCursor) {

  public PolicyViolations {
    violations = violations == null ? List.of() : List.copyOf(violations);
  }
}
