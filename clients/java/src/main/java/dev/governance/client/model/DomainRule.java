package dev.governance.client.model;

/**
 * Which assets belong to a domain. {@code kind}: {@code asset} (the asset with this id),
 * {@code dbt_project} (assets a dbt upload wrote for this project), {@code namespace} (assets
 * whose id starts with the value) or {@code tag} (assets carrying the tag). An asset is in at
 * most one domain: between domains an {@code asset} rule wins over {@code dbt_project}, then
 * {@code namespace}, then {@code tag}; within one kind the domain id that sorts first wins.
 */
public record DomainRule(String kind, String value) {

  public static DomainRule asset(String assetId) {
    return new DomainRule("asset", assetId);
  }

  public static DomainRule dbtProject(String project) {
    return new DomainRule("dbt_project", project);
  }

  public static DomainRule namespace(String idPrefix) {
    return new DomainRule("namespace", idPrefix);
  }

  public static DomainRule tag(String tag) {
    return new DomainRule("tag", tag);
  }
}
