package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a quality rule checks, and the params each type needs. {@link QualityRule#type()} is a
 * plain string; this enum names the types this client knows.
 */
public enum RuleType {
  NOT_NULL,
  UNIQUE,
  /** params {@code {"values": [...]}}. */
  ACCEPTED_VALUES,
  /** params {@code {"to", "field"?}}. */
  RELATIONSHIPS,
  /** params {@code {"min"?, "max"?}}, at least one. */
  RANGE,
  /** params {@code {"max_age_hours"}}. */
  FRESHNESS,
  /** params {@code {"min"?, "max"?}}, at least one. */
  ROW_COUNT,
  /** params: any object, e.g. your runner's SQL. */
  CUSTOM;

  /** The wire form, e.g. {@code not_null}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
