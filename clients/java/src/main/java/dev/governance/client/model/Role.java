package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A user's role, which caps the scope of their tokens: viewer reads, editor writes, admin
 * administers. {@link User#role()} is the wire string, so roles added later still read.
 */
public enum Role {
  VIEWER,
  EDITOR,
  ADMIN;

  /** The wire form, e.g. {@code editor}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
