package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A named group of users, given roles in domains. {@code idpGroups} are identity-provider
 * groups: at each single sign-on a user's membership follows them (empty: members are managed
 * by hand). {@code members} are user ids.
 */
public record Team(
    String id,
    @JsonProperty("display_name") String displayName,
    @JsonProperty("idp_groups") List<String> idpGroups,
    List<String> members,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt) {

  public Team {
    idpGroups = idpGroups == null ? List.of() : List.copyOf(idpGroups);
    members = members == null ? List.of() : List.copyOf(members);
  }
}
