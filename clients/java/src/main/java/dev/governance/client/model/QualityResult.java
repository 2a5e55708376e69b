package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * A recorded run of a rule. {@code source} is {@code api}, or {@code dbt:<invocation_id>} for
 * dbt run results; {@code observedValue} is whatever JSON value was sent (numbers as Integer,
 * Long or Double).
 */
public record QualityResult(
    String id,
    @JsonProperty("rule_id") String ruleId,
    String status,
    @JsonProperty("observed_value") Object observedValue,
    String message,
    @JsonProperty("run_at") Instant runAt,
    @JsonProperty("recorded_at") Instant recordedAt,
    String source) {}
