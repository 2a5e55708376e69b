package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The writable fields of a policy, the body of {@code create} and {@code replace}. {@code name}
 * and {@code kind} are required; null fields are left out (the service defaults: enabled,
 * severity medium, the empty selector, no params). An unknown kind, selector key or param is a
 * {@code ValidationException} naming it, e.g. {@code body.params.tag}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PolicyInput(
    String name,
    String description,
    String kind,
    Boolean enabled,
    String severity,
    Selector selector,
    Map<String, Object> params) {

  public PolicyInput {
    params = params == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  public static Builder builder(String name, PolicyKind kind) {
    return new Builder().name(name).kind(kind);
  }

  static Builder builder(PolicyInput from) {
    Builder b =
        new Builder()
            .name(from.name)
            .description(from.description)
            .kind(from.kind)
            .severity(from.severity)
            .selector(from.selector);
    b.enabled = from.enabled;
    if (from.params != null) {
      b.params(from.params);
    }
    return b;
  }

  /** Builds a {@link PolicyInput}. */
  public static final class Builder {
    private String name;
    private String description;
    private String kind;
    private Boolean enabled;
    private String severity;
    private Selector selector;
    private Map<String, Object> params;

    private Builder() {}

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    public Builder kind(PolicyKind kind) {
      return kind(kind == null ? null : kind.wireName());
    }

    /** A kind by its wire name, for kinds newer than this client. */
    public Builder kind(String kind) {
      this.kind = kind;
      return this;
    }

    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    /** {@code low}, {@code medium} (the default), {@code high} or {@code critical}. */
    public Builder severity(String severity) {
      this.severity = severity;
      return this;
    }

    public Builder selector(Selector selector) {
      this.selector = selector;
      return this;
    }

    /** Replaces the params (kind-specific; see {@link PolicyKind}). */
    public Builder params(Map<String, ?> params) {
      this.params = new LinkedHashMap<>(params);
      return this;
    }

    /** One param; a {@link Selector} is a fine value for {@code restricted_flow}'s {@code to}. */
    public Builder param(String key, Object value) {
      if (params == null) {
        params = new LinkedHashMap<>();
      }
      params.put(key, value);
      return this;
    }

    public PolicyInput build() {
      return new PolicyInput(name, description, kind, enabled, severity, selector, params);
    }
  }
}
