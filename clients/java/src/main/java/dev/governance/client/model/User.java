package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * A dashboard account. {@code role} ({@code viewer}, {@code editor}, {@code admin}; see
 * {@link Role}) caps what the user's tokens may do. The password is never returned.
 */
public record User(
    String id,
    String username,
    @JsonProperty("display_name") String displayName,
    String role,
    boolean disabled,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt,
    @JsonProperty("last_sign_in_at") Instant lastSignInAt) {}
