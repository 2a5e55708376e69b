package dev.governance.client.model;

/**
 * Which edges {@code lineage().edges(...)} returns: by source, target and origin (e.g.
 * {@code api}, {@code dbt:jaffle_shop}); all optional. Paging is the listing's own.
 */
public record EdgeFilter(String source, String target, String origin) {

  public static EdgeFilter all() {
    return new EdgeFilter(null, null, null);
  }

  public static EdgeFilter from(String source) {
    return new EdgeFilter(source, null, null);
  }

  public static EdgeFilter into(String target) {
    return new EdgeFilter(null, target, null);
  }

  public EdgeFilter withSource(String value) {
    return new EdgeFilter(value, target, origin);
  }

  public EdgeFilter withTarget(String value) {
    return new EdgeFilter(source, value, origin);
  }

  public EdgeFilter withOrigin(String value) {
    return new EdgeFilter(source, target, value);
  }
}
