package dev.governance.client.model;

/**
 * Which rules {@code quality().rules(...)} returns: by asset, status ({@code unknown},
 * {@code passing}, {@code failing}, {@code error}) and type, all optional. Paging is the
 * listing's own.
 */
public record RuleFilter(String assetId, String status, String type) {

  public static RuleFilter all() {
    return new RuleFilter(null, null, null);
  }

  /** The rules of one asset. */
  public static RuleFilter forAsset(String assetId) {
    return all().withAssetId(assetId);
  }

  public RuleFilter withAssetId(String value) {
    return new RuleFilter(value, status, type);
  }

  public RuleFilter withStatus(String value) {
    return new RuleFilter(assetId, value, type);
  }

  public RuleFilter withType(RuleType value) {
    return new RuleFilter(assetId, status, value == null ? null : value.wireName());
  }
}
