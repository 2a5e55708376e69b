package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A set of assets owned by a team ({@code ownerTeam}, implicitly its admin), chosen by
 * {@code rules}, where {@code grants} give teams a role. A {@code private} domain's assets are
 * hidden from callers with no role in it. {@code assetCount} is how many assets it holds; an
 * asset's own {@link Asset#domain()} names its domain.
 */
public record Domain(
    String id,
    @JsonProperty("display_name") String displayName,
    String description,
    @JsonProperty("private") boolean isPrivate,
    @JsonProperty("owner_team") String ownerTeam,
    List<DomainRule> rules,
    List<DomainGrant> grants,
    @JsonProperty("asset_count") long assetCount,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt) {

  public Domain {
    rules = rules == null ? List.of() : List.copyOf(rules);
    grants = grants == null ? List.of() : List.copyOf(grants);
  }
}
