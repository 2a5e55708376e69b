package dev.governance.client.model;

/**
 * Which policies {@code policies().list(...)} returns: by kind and enabled, both optional.
 * Paging is the listing's own.
 */
public record PolicyFilter(String kind, Boolean enabled) {

  public static PolicyFilter all() {
    return new PolicyFilter(null, null);
  }

  public static PolicyFilter ofKind(PolicyKind kind) {
    return all().withKind(kind);
  }

  public PolicyFilter withKind(PolicyKind value) {
    return new PolicyFilter(value == null ? null : value.wireName(), enabled);
  }

  public PolicyFilter withEnabled(boolean value) {
    return new PolicyFilter(kind, value);
  }
}
