package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code PUT /teams/{id}}, which replaces the whole team but its members: an
 * optional display name and the identity-provider groups whose members belong to it (empty:
 * members are managed by hand only).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TeamInput(
    @JsonProperty("display_name") String displayName,
    @JsonProperty("idp_groups") List<String> idpGroups) {

  public TeamInput {
    idpGroups = idpGroups == null ? null : List.copyOf(idpGroups);
  }

  /** A team with no display name and no identity-provider groups. */
  public static TeamInput empty() {
    return new TeamInput(null, null);
  }

  public static TeamInput named(String displayName) {
    return new TeamInput(displayName, null);
  }

  public TeamInput withIdpGroups(List<String> groups) {
    return new TeamInput(displayName, groups);
  }
}
