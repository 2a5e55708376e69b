package dev.governance.client.model;

/**
 * Which policies {@code policies().list(...)} returns: by kind and enabled, both optional.
 * {@code pageSize} is the per-request {@code limit} (1-500); paging is automatic.
 */
public record PolicyFilter(String kind, Boolean enabled, Integer pageSize, String cursor) {

  public static PolicyFilter all() {
    return new PolicyFilter(null, null, null, null);
  }

  public static PolicyFilter ofKind(PolicyKind kind) {
    return all().withKind(kind);
  }

  public PolicyFilter withKind(PolicyKind value) {
    return new PolicyFilter(value == null ? null : value.wireName(), enabled, pageSize, cursor);
  }

  public PolicyFilter withEnabled(Boolean value) {
    return new PolicyFilter(kind, value, pageSize, cursor);
  }

  public PolicyFilter withPageSize(Integer value) {
    return new PolicyFilter(kind, enabled, value, cursor);
  }

  public PolicyFilter withCursor(String value) {
    return new PolicyFilter(kind, enabled, pageSize, value);
  }
}
