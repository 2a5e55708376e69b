package dev.governance.client.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Which assets {@code assets().list(...)} returns. Every field is optional; tags must all match.
 * Paging is the listing's own ({@link dev.governance.client.PagedIterable#pageSize(int)}).
 *
 * <p>{@code datasetNamespace} alone lists the assets whose dataset lies in that namespace;
 * with {@code datasetName} too, the one asset holding that dataset (0 or 1 items). Both are
 * normalised by the service first, so any spelling the platform's rules make equal finds it
 * ({@code postgres://DB} finds {@code postgres://db:5432}). {@code domain} lists the assets in
 * that domain.
 */
public record AssetFilter(
    String type,
    String platform,
    List<String> tags,
    String owner,
    String q,
    Boolean placeholder,
    String datasetNamespace,
    String datasetName,
    String domain) {

  public AssetFilter {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  /** A filter on no domain (the fields before domains came). */
  public AssetFilter(
      String type,
      String platform,
      List<String> tags,
      String owner,
      String q,
      Boolean placeholder,
      String datasetNamespace,
      String datasetName) {
    this(type, platform, tags, owner, q, placeholder, datasetNamespace, datasetName, null);
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
    private String datasetNamespace;
    private String datasetName;
    private String domain;

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

    /** Assets whose dataset lies in this namespace (any spelling of it). */
    public Builder datasetNamespace(String namespace) {
      this.datasetNamespace = namespace;
      return this;
    }

    /** With {@link #datasetNamespace}: the one asset holding the dataset of this name. */
    public Builder datasetName(String name) {
      this.datasetName = name;
      return this;
    }

    /** The asset holding this dataset (any spelling of it): both dataset criteria at once. */
    public Builder dataset(Dataset dataset) {
      this.datasetNamespace = dataset.namespace();
      this.datasetName = dataset.name();
      return this;
    }

    /** The assets in this domain. */
    public Builder domain(String domain) {
      this.domain = domain;
      return this;
    }

    public AssetFilter build() {
      return new AssetFilter(
          type, platform, tags, owner, q, placeholder, datasetNamespace, datasetName, domain);
    }
  }
}
