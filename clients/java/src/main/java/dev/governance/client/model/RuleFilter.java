package dev.governance.client.model;

/**
 * Which rules {@code quality().rules(...)} returns: by asset, status ({@code unknown},
 * {@code passing}, {@code failing}, {@code error}) and type, all optional. {@code pageSize} is
 * the per-request {@code limit} (1-500); paging is automatic.
 */
public record RuleFilter(String assetId, String status, String type, Integer pageSize, String cursor) {

  public static RuleFilter all() {
    return new RuleFilter(null, null, null, null, null);
  }

  /** The rules of one asset. */
  public static RuleFilter forAsset(String assetId) {
    return all().withAssetId(assetId);
  }

  public RuleFilter withAssetId(String value) {
    return new RuleFilter(value, status, type, pageSize, cursor);
  }

  public RuleFilter withStatus(String value) {
    return new RuleFilter(assetId, value, type, pageSize, cursor);
  }

  public RuleFilter withType(RuleType value) {
    return new RuleFilter(assetId, status, value == null ? null : value.wireName(), pageSize, cursor);
  }

  public RuleFilter withPageSize(Integer value) {
    return new RuleFilter(assetId, status, type, value, cursor);
  }

  public RuleFilter withCursor(String value) {
    return new RuleFilter(assetId, status, type, pageSize, value);
  }
}
