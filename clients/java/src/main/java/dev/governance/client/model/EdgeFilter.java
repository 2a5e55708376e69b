package dev.governance.client.model;

/**
 * Which edges {@code lineage().edges(...)} returns: by source, target and origin (e.g.
 * {@code api}, {@code dbt:jaffle_shop}); all optional. {@code pageSize} is the per-request
 * {@code limit} (1-500); paging is automatic.
 */
public record EdgeFilter(String source, String target, String origin, Integer pageSize, String cursor) {

  public static EdgeFilter all() {
    return new EdgeFilter(null, null, null, null, null);
  }

  public static EdgeFilter from(String source) {
    return new EdgeFilter(source, null, null, null, null);
  }

  public static EdgeFilter into(String target) {
    return new EdgeFilter(null, target, null, null, null);
  }

  public EdgeFilter withSource(String value) {
    return new EdgeFilter(value, target, origin, pageSize, cursor);
  }

  public EdgeFilter withTarget(String value) {
    return new EdgeFilter(source, value, origin, pageSize, cursor);
  }

  public EdgeFilter withOrigin(String value) {
    return new EdgeFilter(source, target, value, pageSize, cursor);
  }

  public EdgeFilter withPageSize(Integer value) {
    return new EdgeFilter(source, target, origin, value, cursor);
  }

  public EdgeFilter withCursor(String value) {
    return new EdgeFilter(source, target, origin, pageSize, value);
  }
}
