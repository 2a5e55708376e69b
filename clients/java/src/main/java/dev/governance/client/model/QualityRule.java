package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A data quality rule on one asset (and optionally one column), as the service stores it.
 * {@code status} ({@code unknown}, {@code passing}, {@code failing}, {@code error}) and
 * {@code lastResult} follow the newest result by run time; they, {@code origin} ({@code api} or
 * {@code dbt:<project>}), {@code version} and the timestamps are read-only. {@link #toInput()}
 * gives the writable part for a read-modify-{@code replaceRule} round trip.
 */
public record QualityRule(
    String id,
    @JsonProperty("asset_id") String assetId,
    String column,
    String name,
    String type,
    Map<String, Object> params,
    String severity,
    boolean enabled,
    String status,
    @JsonProperty("last_result") LastResult lastResult,
    String origin,
    long version,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt) {

  public QualityRule {
    params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  public boolean isFailing() {
    return "failing".equals(status);
  }

  /** The writable fields, ready to edit and send back with {@code replaceRule}. */
  public QualityRuleInput toInput() {
    return new QualityRuleInput(assetId, column, name, type, params, severity, enabled);
  }

  /** A builder starting from the writable fields of this rule. */
  public QualityRuleInput.Builder toBuilder() {
    return QualityRuleInput.builder(toInput());
  }

  /** The result a rule's status follows. */
  public record LastResult(
      String status,
      @JsonProperty("observed_value") Object observedValue,
      String message,
      @JsonProperty("run_at") Instant runAt,
      String source) {}
}
