package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /me}: the token the client calls with, and the user who made it (null for a token
 * made with {@code governance token create}). {@code role} is the global role (for a
 * command-line token the one its scope names); {@code scopes} what the token may do now, its
 * own scopes capped by the user's best role anywhere; {@code teams} the ids of the user's teams
 * and {@code domainRoles} the user's role in each domain where they have one, by domain id.
 */
public record Me(
    Token token,
    User user,
    @JsonProperty("user_id") String userId,
    String username,
    String role,
    List<String> scopes,
    List<String> teams,
    @JsonProperty("domain_roles") Map<String, String> domainRoles) {

  public Me {
    scopes = scopes == null ? List.of() : List.copyOf(scopes);
    teams = teams == null ? List.of() : List.copyOf(teams);
    domainRoles =
        domainRoles == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(domainRoles));
  }

  /** A token and its user, with no roles, teams or domain roles. */
  public Me(Token token, User user) {
    this(token, user, null, null, null, null, null, null);
  }
}
