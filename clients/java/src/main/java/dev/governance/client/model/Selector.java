package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.List;

/**
 * Which assets a policy governs: every criterion given must hold; {@code type} and
 * {@code platform} match any of their values, {@code tags} must all be present. The empty
 * selector ({@link #all()}) governs every asset. Placeholders are never governed.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Selector(
    @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> type,
    @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> platform,
    List<String> tags,
    @JsonProperty("id_prefix") String idPrefix) {

  public Selector {
    type = type == null ? List.of() : List.copyOf(type);
    platform = platform == null ? List.of() : List.copyOf(platform);
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  /** Every asset. */
  public static Selector all() {
    return new Selector(null, null, null, null);
  }

  /** Assets whose id starts with {@code prefix}. */
  public static Selector idPrefix(String prefix) {
    return new Selector(null, null, null, prefix);
  }

  /** Assets of any of these types. */
  public Selector withType(String... types) {
    return new Selector(Arrays.asList(types), platform, tags, idPrefix);
  }

  /** Assets on any of these platforms. */
  public Selector withPlatform(String... platforms) {
    return new Selector(type, Arrays.asList(platforms), tags, idPrefix);
  }

  /** Assets carrying every one of these tags. */
  public Selector withTags(String... allTags) {
    return new Selector(type, platform, Arrays.asList(allTags), idPrefix);
  }

  public Selector withIdPrefix(String prefix) {
    return new Selector(type, platform, tags, prefix);
  }
}
