package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A freshly made token: its metadata and the {@code token} secret, which the service shows
 * this once and never again. Keep it somewhere safe; {@link #toString()} hides it.
 */
public record TokenCreated(
    String id,
    String name,
    List<String> scopes,
    String prefix,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("expires_at") Instant expiresAt,
    @JsonProperty("last_used_at") Instant lastUsedAt,
    @JsonProperty("revoked_at") Instant revokedAt,
    @JsonProperty("created_by") String createdBy,
    @JsonProperty("user_id") String userId,
    String token) {

  public TokenCreated {
    scopes = scopes == null ? List.of() : List.copyOf(scopes);
  }

  /** The metadata without the secret. */
  public Token metadata() {
    return new Token(
        id, name, scopes, prefix, createdAt, expiresAt, lastUsedAt, revokedAt, createdBy, userId);
  }

  @Override
  public String toString() {
    return "TokenCreated[id=" + id + ", name=" + name + ", scopes=" + scopes + ", prefix=" + prefix
        + ", expiresAt=" + expiresAt + ", token=" + prefix + "...]";
  }
}
