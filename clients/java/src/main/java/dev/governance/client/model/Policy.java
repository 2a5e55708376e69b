package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A governance policy as the service stores it. {@code id}, {@code version}, the timestamps and
 * {@code evaluatedAt} (null before the first evaluation) are read-only; {@link #toInput()} gives
 * the writable part for a read-modify-{@code replace} round trip. {@code kind} is one of
 * {@link PolicyKind}'s wire names; {@code severity} is low, medium, high or critical.
 */
public record Policy(
    String id,
    String name,
    String description,
    String kind,
    boolean enabled,
    String severity,
    Selector selector,
    Map<String, Object> params,
    long version,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt,
    @JsonProperty("evaluated_at") Instant evaluatedAt) {

  public Policy {
    selector = selector == null ? Selector.all() : selector;
    params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  /** The writable fields, ready to edit and send back with {@code replace}. */
  public PolicyInput toInput() {
    return new PolicyInput(name, description, kind, enabled, severity, selector, params);
  }

  /** A builder starting from the writable fields of this policy. */
  public PolicyInput.Builder toBuilder() {
    return PolicyInput.builder(toInput());
  }
}
