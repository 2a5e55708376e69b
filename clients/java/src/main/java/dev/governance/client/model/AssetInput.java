package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writable fields of an asset, the body of {@code create} and {@code put}. {@code id},
 * {@code name} and {@code type} are required to create; for {@code put} the id comes from the
 * path and may be left null here. Null fields are left out of the JSON body.
 *
 * <p>{@code dataset} makes the asset hold that physical dataset. A placeholder (or an asset
 * made by OpenLineage or SQL ingestion, or a dbt source) holding it is merged into this asset:
 * its edges, column lineage, rules, owners and tags move over and its id becomes one of this
 * asset's {@link Asset#aliases()}. When an asset created explicitly holds it, the service
 * answers 409 {@code dataset_taken}
 * ({@link dev.governance.client.exception.ConflictException#holder()} names that asset).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AssetInput(
    String id,
    String name,
    String type,
    String platform,
    String description,
    List<String> owners,
    List<String> tags,
    List<Column> columns,
    Map<String, Object> properties,
    Dataset dataset) {

  public AssetInput {
    owners = owners == null ? null : List.copyOf(owners);
    tags = tags == null ? null : List.copyOf(tags);
    columns = columns == null ? null : List.copyOf(columns);
    properties =
        properties == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  /** The fields without a dataset (as before datasets came). */
  public AssetInput(
      String id,
      String name,
      String type,
      String platform,
      String description,
      List<String> owners,
      List<String> tags,
      List<Column> columns,
      Map<String, Object> properties) {
    this(id, name, type, platform, description, owners, tags, columns, properties, null);
  }

  /** A builder with the three required fields. */
  public static Builder builder(String id, String name, String type) {
    return new Builder().id(id).name(name).type(type);
  }

  public static Builder builder() {
    return new Builder();
  }

  static Builder builder(AssetInput from) {
    Builder b =
        builder(from.id, from.name, from.type)
            .platform(from.platform)
            .description(from.description)
            .dataset(from.dataset);
    if (from.owners != null) {
      b.owners(from.owners);
    }
    if (from.tags != null) {
      b.tags(from.tags);
    }
    if (from.columns != null) {
      b.columns(from.columns);
    }
    if (from.properties != null) {
      b.properties(from.properties);
    }
    return b;
  }

  /** The same fields under another id. */
  public AssetInput withId(String newId) {
    return new AssetInput(
        newId, name, type, platform, description, owners, tags, columns, properties, dataset);
  }

  /** The same fields holding this dataset (null: none). */
  public AssetInput withDataset(Dataset newDataset) {
    return new AssetInput(
        id, name, type, platform, description, owners, tags, columns, properties, newDataset);
  }

  /** Builds an {@link AssetInput}; list setters replace, {@code add...} methods append. */
  public static final class Builder {
    private String id;
    private String name;
    private String type;
    private String platform;
    private String description;
    private List<String> owners;
    private List<String> tags;
    private List<Column> columns;
    private Map<String, Object> properties;
    private Dataset dataset;

    private Builder() {}

    public Builder id(String id) {
      this.id = id;
      return this;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder type(String type) {
      this.type = type;
      return this;
    }

    public Builder platform(String platform) {
      this.platform = platform;
      return this;
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    public Builder owners(Collection<String> owners) {
      this.owners = new ArrayList<>(owners);
      return this;
    }

    public Builder owners(String... owners) {
      return owners(Arrays.asList(owners));
    }

    public Builder addOwner(String owner) {
      if (owners == null) {
        owners = new ArrayList<>();
      }
      owners.add(owner);
      return this;
    }

    public Builder tags(Collection<String> tags) {
      this.tags = new ArrayList<>(tags);
      return this;
    }

    public Builder tags(String... tags) {
      return tags(Arrays.asList(tags));
    }

    public Builder addTag(String tag) {
      if (tags == null) {
        tags = new ArrayList<>();
      }
      tags.add(tag);
      return this;
    }

    public Builder columns(Collection<Column> columns) {
      this.columns = new ArrayList<>(columns);
      return this;
    }

    public Builder addColumn(Column column) {
      if (columns == null) {
        columns = new ArrayList<>();
      }
      columns.add(column);
      return this;
    }

    /** Values must be strings, numbers or booleans. */
    public Builder properties(Map<String, ?> properties) {
      this.properties = new LinkedHashMap<>(properties);
      return this;
    }

    /** The value must be a string, a number or a boolean. */
    public Builder property(String key, Object value) {
      if (properties == null) {
        properties = new LinkedHashMap<>();
      }
      properties.put(key, value);
      return this;
    }

    /** The physical dataset this asset is; null for none. */
    public Builder dataset(Dataset dataset) {
      this.dataset = dataset;
      return this;
    }

    /** The physical dataset {@code name} in {@code namespace}, e.g. {@code snowflake://acme-prod}. */
    public Builder dataset(String namespace, String name) {
      return dataset(Dataset.of(namespace, name));
    }

    public AssetInput build() {
      return new AssetInput(
          id, name, type, platform, description, owners, tags, columns, properties, dataset);
    }
  }
}
