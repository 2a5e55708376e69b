package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Which way a lineage traversal goes. */
public enum Direction {
  UPSTREAM,
  DOWNSTREAM,
  BOTH;

  /** The wire form: {@code upstream}, {@code downstream} or {@code both}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static Direction fromWire(String value) {
    for (Direction d : values()) {
      if (d.wireName().equals(value)) {
        return d;
      }
    }
    return null;
  }
}
