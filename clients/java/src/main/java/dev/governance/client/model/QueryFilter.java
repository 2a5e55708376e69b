package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which assets match, in the query language: every field given must hold, and a list means any
 * of its values. {@link #any()} matches every asset.
 *
 * <pre>{@code
 * QueryFilter.builder().type("table", "view").tagsAny("pii").hasDownstream(true).build()
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueryFilter(
    List<String> type,
    List<String> platform,
    @JsonProperty("tags_all") List<String> tagsAll,
    @JsonProperty("tags_any") List<String> tagsAny,
    List<String> owner,
    @JsonProperty("id_prefix") List<String> idPrefix,
    @JsonProperty("name_contains") String nameContains,
    Boolean placeholder,
    @JsonProperty("has_upstream") Boolean hasUpstream,
    @JsonProperty("has_downstream") Boolean hasDownstream,
    Map<String, Object> properties) {

  /** Matches every asset. */
  public static QueryFilter any() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link QueryFilter}; each list setter takes any-of values. */
  public static final class Builder {
    private List<String> type;
    private List<String> platform;
    private List<String> tagsAll;
    private List<String> tagsAny;
    private List<String> owner;
    private List<String> idPrefix;
    private String nameContains;
    private Boolean placeholder;
    private Boolean hasUpstream;
    private Boolean hasDownstream;
    private Map<String, Object> properties;

    private Builder() {}

    /** Any of these types (case-insensitive). */
    public Builder type(String... values) {
      type = List.of(values);
      return this;
    }

    public Builder platform(String... values) {
      platform = List.of(values);
      return this;
    }

    /** Carries every one of these tags. */
    public Builder tagsAll(String... values) {
      tagsAll = List.of(values);
      return this;
    }

    /** Carries at least one of these tags. */
    public Builder tagsAny(String... values) {
      tagsAny = List.of(values);
      return this;
    }

    public Builder owner(String... values) {
      owner = List.of(values);
      return this;
    }

    public Builder idPrefix(String... values) {
      idPrefix = List.of(values);
      return this;
    }

    /** A case-insensitive substring of the name. */
    public Builder nameContains(String value) {
      nameContains = value;
      return this;
    }

    public Builder placeholder(boolean value) {
      placeholder = value;
      return this;
    }

    /** Has (true) or lacks (false) an incoming lineage edge. */
    public Builder hasUpstream(boolean value) {
      hasUpstream = value;
      return this;
    }

    /** Has (true) or lacks (false) an outgoing lineage edge. */
    public Builder hasDownstream(boolean value) {
      hasDownstream = value;
      return this;
    }

    /** A user property that must equal any of these values (strings, numbers, booleans). */
    public Builder property(String key, Object... anyOf) {
      if (properties == null) {
        properties = new LinkedHashMap<>();
      }
      properties.put(key, anyOf.length == 1 ? anyOf[0] : Arrays.asList(anyOf));
      return this;
    }

    public QueryFilter build() {
      return new QueryFilter(
          type, platform, tagsAll, tagsAny, owner, idPrefix, nameContains, placeholder, hasUpstream,
          hasDownstream,
          properties == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(properties)));
    }
  }
}
