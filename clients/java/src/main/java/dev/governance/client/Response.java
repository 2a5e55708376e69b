package dev.governance.client;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An answer with its HTTP status and headers, for when they matter: created (201) or
 * replaced (200), the {@code ETag}, the request id, the rate limit left. Every operation's
 * {@code ...WithResponse} form returns one; {@code value()} is what the short form returns
 * (null for operations without a body).
 *
 * <pre>{@code
 * Response<Asset> r = client.assets().putWithResponse(id, input, null, null);
 * r.created();                                  // true for 201
 * r.etag();                                     // Optional["\"3\""]
 * r.rateLimit().map(RateLimit::remaining);      // requests left in the window
 * }</pre>
 *
 * @param status the HTTP status (2xx)
 * @param headers the response headers; {@link #header(String)} matches names in any case
 * @param value the decoded body, or null
 */
public record Response<T>(int status, Map<String, List<String>> headers, T value) {

  public Response {
    headers = headers == null ? Map.of() : Map.copyOf(headers);
  }

  /** The first value of a header, matched case-insensitively. */
  public Optional<String> header(String name) {
    return Headers.first(headers, name);
  }

  /** True when the call created the resource (201). */
  public boolean created() {
    return status == 201;
  }

  /** The {@code ETag} of a versioned resource, e.g. {@code "3"} with its quotes. */
  public Optional<String> etag() {
    return header("ETag");
  }

  /** The id the service logged this request under ({@code X-Request-ID}). */
  public Optional<String> requestId() {
    return header("X-Request-ID");
  }

  /** The token's rate limit after this request, when the service reported it. */
  public Optional<RateLimit> rateLimit() {
    Optional<String> limit = header("RateLimit-Limit");
    Optional<String> remaining = header("RateLimit-Remaining");
    Optional<String> reset = header("RateLimit-Reset");
    if (limit.isEmpty() || remaining.isEmpty() || reset.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new RateLimit(
              Long.parseLong(limit.get().strip()),
              Long.parseLong(remaining.get().strip()),
              Long.parseLong(reset.get().strip())));
    } catch (NumberFormatException unreadable) {
      return Optional.empty();
    }
  }

  /**
   * The {@code RateLimit-*} headers: the burst size, the requests left now, and the seconds
   * until the bucket is full again.
   */
  public record RateLimit(long limit, long remaining, long resetSeconds) {}
}
