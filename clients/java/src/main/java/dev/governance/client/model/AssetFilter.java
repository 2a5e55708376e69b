package dev.governance.client.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Which assets {@code assets().list(...)} returns. Every field is optional; tags must all match.
 * {@code pageSize} is the server's {@code limit} per request (1-500, default 50); paging itself
 * is automatic. {@code cursor} starts from a cursor a previous listing gave.
 */
public record AssetFilter(
    String type,
    String platform,
    List<String> tags,
    String owner,
    String q,
    Boolean placeholder,
    Integer pageSize,
    String cursor) {

  public AssetFilter {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  /** No filter: every asset. */
  public static AssetFilter all() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private String type;
    private String platform;
    private final List<String> tags = new ArrayList<>();
    private String owner;
    private String q;
    private Boolean placeholder;
    private Integer pageSize;
    private String cursor;

    private Builder() {}

    public Builder type(String type) {
      this.type = type;
      return this;
    }

    public Builder platform(String platform) {
      this.platform = platform;
      return this;
    }

    /** Adds a tag the assets must carry (all given tags must match). */
    public Builder tag(String tag) {
      tags.add(tag);
      return this;
    }

    public Builder tags(String... tags) {
      return tags(Arrays.asList(tags));
    }

    public Builder tags(Collection<String> tags) {
      this.tags.addAll(tags);
      return this;
    }

    public Builder owner(String owner) {
      this.owner = owner;
      return this;
    }

    /** Case-insensitive substring of id, name or description. */
    public Builder q(String q) {
      this.q = q;
      return this;
    }

    public Builder placeholder(Boolean placeholder) {
      this.placeholder = placeholder;
      return this;
    }

    public Builder pageSize(Integer pageSize) {
      this.pageSize = pageSize;
      return this;
    }

    public Builder cursor(String cursor) {
      this.cursor = cursor;
      return this;
    }

    public AssetFilter build() {
      return new AssetFilter(type, platform, tags, owner, q, placeholder, pageSize, cursor);
    }
  }
}
