package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A data asset as the service stores it. {@code aliases}, {@code placeholder},
 * {@code createdAt}, {@code updatedAt}, {@code version} and {@code domain} are read-only; {@link #toInput()}
 * gives the writable part for a read-modify-{@code put} round trip.
 *
 * <p>{@code dataset} is the physical dataset the asset is (null when none), as the service
 * normalised it. {@code aliases} are the former ids of assets merged into this one (a
 * placeholder that held the dataset, for one): each still finds this asset, whose
 * {@code id} is the current one. {@code domain} is the domain the asset is in (null: none),
 * as the domains' rules decide.
 */
public record Asset(
    String id,
    String name,
    String type,
    String platform,
    String description,
    List<String> owners,
    List<String> tags,
    List<Column> columns,
    Map<String, Object> properties,
    Dataset dataset,
    List<String> aliases,
    boolean placeholder,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt,
    long version,
    String domain) {

  public Asset {
    owners = owners == null ? List.of() : List.copyOf(owners);
    tags = tags == null ? List.of() : List.copyOf(tags);
    columns = columns == null ? List.of() : List.copyOf(columns);
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
    properties =
        properties == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  /** An asset in no domain (the fields before domains came). */
  public Asset(
      String id,
      String name,
      String type,
      String platform,
      String description,
      List<String> owners,
      List<String> tags,
      List<Column> columns,
      Map<String, Object> properties,
      Dataset dataset,
      List<String> aliases,
      boolean placeholder,
      Instant createdAt,
      Instant updatedAt,
      long version) {
    this(id, name, type, platform, description, owners, tags, columns, properties, dataset,
        aliases, placeholder, createdAt, updatedAt, version, null);
  }

  /** An asset without a dataset or aliases (the fields before datasets came). */
  public Asset(
      String id,
      String name,
      String type,
      String platform,
      String description,
      List<String> owners,
      List<String> tags,
      List<Column> columns,
      Map<String, Object> properties,
      boolean placeholder,
      Instant createdAt,
      Instant updatedAt,
      long version) {
    this(id, name, type, platform, description, owners, tags, columns, properties, null, null,
        placeholder, createdAt, updatedAt, version);
  }

  /** The ETag the service gives this version: {@code "<version>"}, quotes included. */
  public String etag() {
    return "\"" + version + "\"";
  }

  /**
   * The writable fields, ready to edit and send back with {@code put}; the dataset included,
   * since a {@code put} without one leaves the asset holding none.
   */
  public AssetInput toInput() {
    return new AssetInput(
        id, name, type, platform, description, owners, tags, columns, properties, dataset);
  }

  /** A builder starting from the writable fields of this asset. */
  public AssetInput.Builder toBuilder() {
    return AssetInput.builder(toInput());
  }
}
