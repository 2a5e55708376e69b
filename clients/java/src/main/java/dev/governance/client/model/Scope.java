package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Token scopes; a higher scope includes the lower ones. */
public enum Scope {
  READ,
  WRITE,
  ADMIN;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
