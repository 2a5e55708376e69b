package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer to a bulk edge upload: items received, edges created, distinct pairs that already
 * existed, placeholder assets made for unknown ids, (when the edges carried columns) the
 * column mappings created and already there, and (for a replacement, {@link
 * BulkOptions#replace()}, else null) what the origin let go of. {@link #plus} sums chunked
 * uploads.
 */
public record BulkResult(
    long received,
    long created,
    long existing,
    @JsonProperty("assets_created") long assetsCreated,
    @JsonProperty("column_mappings") Counts columnMappings,
    Retired retired) {

  public static final BulkResult EMPTY = new BulkResult(0, 0, 0, 0, null, null);

  public BulkResult(long received, long created, long existing, long assetsCreated) {
    this(received, created, existing, assetsCreated, null, null);
  }

  public BulkResult(
      long received, long created, long existing, long assetsCreated, Counts columnMappings) {
    this(received, created, existing, assetsCreated, columnMappings, null);
  }

  public BulkResult plus(BulkResult other) {
    return new BulkResult(
        received + other.received,
        created + other.created,
        existing + other.existing,
        assetsCreated + other.assetsCreated,
        columnMappings == null ? other.columnMappings : columnMappings.plus(other.columnMappings),
        retired == null ? other.retired : retired.plus(other.retired));
  }
}
