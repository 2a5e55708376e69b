package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a policy checks. {@link Policy#kind()} is a plain string, so kinds added to the service
 * later still read; this enum names the ones this client knows.
 */
public enum PolicyKind {
  /** A governed asset must have an owner. No params. */
  REQUIRE_OWNER,
  /** A governed asset must have a non-blank description. No params. */
  REQUIRE_DESCRIPTION,
  /** A governed asset must have an enabled quality rule; params {@code {types?}}. */
  REQUIRE_QUALITY_RULE,
  /** Assets downstream of one carrying {@code params.tag} must carry it too; {@code {tag, max_depth?}}. */
  TAG_PROPAGATION,
  /** No governed asset may flow into a {@code params.to} selector's asset; {@code {to, max_depth?}}. */
  RESTRICTED_FLOW;

  /** The wire form, e.g. {@code require_owner}. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
