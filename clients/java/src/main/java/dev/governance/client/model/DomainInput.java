package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code PUT /domains/{id}}, which replaces the whole domain: its owner team, at
 * most 100 rules and 100 grants, whether it is private, and an optional display name and
 * description. A team it names that does not exist is a
 * {@link dev.governance.client.exception.ValidationException}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DomainInput(
    @JsonProperty("display_name") String displayName,
    String description,
    @JsonProperty("private") boolean isPrivate,
    @JsonProperty("owner_team") String ownerTeam,
    List<DomainRule> rules,
    List<DomainGrant> grants) {

  public DomainInput {
    rules = rules == null ? List.of() : List.copyOf(rules);
    grants = grants == null ? List.of() : List.copyOf(grants);
  }

  public static Builder builder(String ownerTeam) {
    return new Builder(ownerTeam);
  }

  public static final class Builder {
    private final String ownerTeam;
    private String displayName;
    private String description;
    private boolean isPrivate;
    private final List<DomainRule> rules = new ArrayList<>();
    private final List<DomainGrant> grants = new ArrayList<>();

    private Builder(String ownerTeam) {
      this.ownerTeam = ownerTeam;
    }

    public Builder displayName(String displayName) {
      this.displayName = displayName;
      return this;
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    /** Hides the domain's assets from callers with no role in it. */
    public Builder isPrivate(boolean isPrivate) {
      this.isPrivate = isPrivate;
      return this;
    }

    public Builder rule(DomainRule rule) {
      rules.add(rule);
      return this;
    }

    public Builder grant(String team, Role role) {
      grants.add(DomainGrant.of(team, role));
      return this;
    }

    public DomainInput build() {
      return new DomainInput(displayName, description, isPrivate, ownerTeam, rules, grants);
    }
  }
}
