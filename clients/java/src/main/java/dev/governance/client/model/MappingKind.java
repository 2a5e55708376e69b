package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a column mapping does to the values it carries, which decides whether a column tag goes on
 * downstream across it: copied ({@code IDENTITY}), computed from them ({@code TRANSFORMATION}),
 * hashed or masked ({@code MASKING}), summarised ({@code AGGREGATION}), only deciding which rows
 * ({@code INDIRECT}), or undescribed ({@code UNKNOWN}).
 */
public enum MappingKind {
  IDENTITY,
  TRANSFORMATION,
  MASKING,
  AGGREGATION,
  INDIRECT,
  UNKNOWN;

  /** The wire form: the name in lower case. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static MappingKind fromWire(String value) {
    for (MappingKind k : values()) {
      if (k.wireName().equals(value)) {
        return k;
      }
    }
    return null;
  }
}
