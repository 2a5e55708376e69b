package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /users}: a username unique ignoring case (1-64 of
 * {@code A-Za-z0-9._@-}), a password of 12-256 characters (stored only as a hash), a role, and
 * an optional display name. {@link #toString()} hides the password.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UserInput(
    String username, String password, Role role, @JsonProperty("display_name") String displayName) {

  public static UserInput of(String username, String password, Role role) {
    return new UserInput(username, password, role, null);
  }

  public UserInput withDisplayName(String displayName) {
    return new UserInput(username, password, role, displayName);
  }

  @Override
  public String toString() {
    return "UserInput[username=" + username + ", role=" + role + ", displayName=" + displayName
        + ", password=***]";
  }
}
