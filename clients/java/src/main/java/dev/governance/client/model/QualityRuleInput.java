package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The writable fields of a quality rule, the body of {@code createRule} and {@code replaceRule}.
 * {@code assetId} (an existing asset), {@code name} and {@code type} are required; null fields
 * are left out (the service defaults: severity {@code warn}, enabled, no params). Params that
 * do not fit the type are a {@code ValidationException} naming the param.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QualityRuleInput(
    @JsonProperty("asset_id") String assetId,
    String column,
    String name,
    String type,
    Map<String, Object> params,
    String severity,
    Boolean enabled) {

  public QualityRuleInput {
    params = params == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  public static Builder builder(String assetId, String name, RuleType type) {
    return new Builder().assetId(assetId).name(name).type(type);
  }

  static Builder builder(QualityRuleInput from) {
    Builder b =
        new Builder()
            .assetId(from.assetId)
            .column(from.column)
            .name(from.name)
            .type(from.type)
            .severity(from.severity);
    b.enabled = from.enabled;
    if (from.params != null) {
      b.params(from.params);
    }
    return b;
  }

  /** Builds a {@link QualityRuleInput}. */
  public static final class Builder {
    private String assetId;
    private String column;
    private String name;
    private String type;
    private Map<String, Object> params;
    private String severity;
    private Boolean enabled;

    private Builder() {}

    public Builder assetId(String assetId) {
      this.assetId = assetId;
      return this;
    }

    public Builder column(String column) {
      this.column = column;
      return this;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder type(RuleType type) {
      return type(type == null ? null : type.wireName());
    }

    /** A type by its wire name, for types newer than this client. */
    public Builder type(String type) {
      this.type = type;
      return this;
    }

    /** Replaces the params (type-specific; see {@link RuleType}). */
    public Builder params(Map<String, ?> params) {
      this.params = new LinkedHashMap<>(params);
      return this;
    }

    public Builder param(String key, Object value) {
      if (params == null) {
        params = new LinkedHashMap<>();
      }
      params.put(key, value);
      return this;
    }

    /** {@code warn} (the default) or {@code error}. */
    public Builder severity(String severity) {
      this.severity = severity;
      return this;
    }

    /** A disabled rule records results but raises no alerts. */
    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    public QualityRuleInput build() {
      return new QualityRuleInput(assetId, column, name, type, params, severity, enabled);
    }
  }
}
