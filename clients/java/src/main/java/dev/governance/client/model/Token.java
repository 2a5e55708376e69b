package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * An API token's metadata (never the secret). {@code prefix} is its first 8 characters;
 * {@code userId} the user who made it (null for one made with {@code governance token create}).
 */
public record Token(
    String id,
    String name,
    List<String> scopes,
    String prefix,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("expires_at") Instant expiresAt,
    @JsonProperty("last_used_at") Instant lastUsedAt,
    @JsonProperty("revoked_at") Instant revokedAt,
    @JsonProperty("created_by") String createdBy,
    @JsonProperty("user_id") String userId) {

  public Token {
    scopes = scopes == null ? List.of() : List.copyOf(scopes);
  }

  public boolean revoked() {
    return revokedAt != null;
  }
}
