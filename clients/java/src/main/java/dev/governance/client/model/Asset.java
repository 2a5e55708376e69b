package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A data asset as the service stores it. {@code placeholder}, {@code createdAt},
 * {@code updatedAt} and {@code version} are read-only; {@link #toInput()} gives the writable
 * part for a read-modify-{@code put} round trip.
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
    boolean placeholder,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt,
    long version) {

  public Asset {
    owners = owners == null ? List.of() : List.copyOf(owners);
    tags = tags == null ? List.of() : List.copyOf(tags);
    columns = columns == null ? List.of() : List.copyOf(columns);
    properties =
        properties == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  /** The ETag the service gives this version: {@code "<version>"}, quotes included. */
  public String etag() {
    return "\"" + version + "\"";
  }

  /** The writable fields, ready to edit and send back with {@code put}. */
  public AssetInput toInput() {
    return new AssetInput(
        id, name, type, platform, description, owners, tags, columns, properties);
  }

  /** A builder starting from the writable fields of this asset. */
  public AssetInput.Builder toBuilder() {
    return AssetInput.builder(toInput());
  }
}
