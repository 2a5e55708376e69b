package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer to a bulk edge upload: items received, edges created, distinct pairs that already
 * existed, and placeholder assets made for unknown ids. {@link #plus} sums chunked uploads.
 */
public record BulkResult(
    long received,
    long created,
    long existing,
    @JsonProperty("assets_created") long assetsCreated) {

  public static final BulkResult EMPTY = new BulkResult(0, 0, 0, 0);

  public BulkResult plus(BulkResult other) {
    return new BulkResult(
        received + other.received,
        created + other.created,
        existing + other.existing,
        assetsCreated + other.assetsCreated);
  }
}
