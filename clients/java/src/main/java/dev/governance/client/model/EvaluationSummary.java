package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The answer of {@code POST /policies/evaluate}: what each policy found. */
public record EvaluationSummary(
    @JsonProperty("evaluated_at") Instant evaluatedAt, List<PolicyEvaluation> policies) {

  public EvaluationSummary {
    policies = policies == null ? List.of() : List.copyOf(policies);
  }

  /** The entry of the policy with this id, if it was evaluated. */
  public Optional<PolicyEvaluation> policy(String policyId) {
    return policies.stream().filter(p -> p.policyId().equals(policyId)).findFirst();
  }

  /**
   * One policy's evaluation: its open {@code violations} afterwards, and the ones this
   * evaluation {@code opened} and {@code resolved} (a background evaluation may have done that
   * already).
   */
  public record PolicyEvaluation(
      @JsonProperty("policy_id") String policyId, long violations, long opened, long resolved) {}
}
