package dev.governance.client;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Settings for one call, overriding the client's: the per-attempt timeout, the retries, an
 * {@code Idempotency-Key}, an {@code X-Request-ID}, an {@code If-Match} version and extra
 * headers. Immutable; every operation has a form that takes one (its {@code ...WithResponse}
 * method, and the {@code RequestOptions} overload of each listing and of the event stream).
 * Pass {@link #DEFAULTS} for none.
 *
 * <pre>{@code
 * RequestOptions options = RequestOptions.builder()
 *     .timeout(Duration.ofSeconds(5))
 *     .idempotencyKey("nightly-sync-2026-01-31")
 *     .requestId("sync-42")                 // the service logs and answers under this id
 *     .header("X-Team", "data-eng")
 *     .build();
 * Response<Asset> created = client.assets().createWithResponse(input, options);
 * }</pre>
 */
public final class RequestOptions {
  /** No overrides: the client's settings apply. */
  public static final RequestOptions DEFAULTS = builder().build();

  private final Duration timeout;
  private final Integer maxRetries;
  private final String idempotencyKey;
  private final String requestId;
  private final Long ifMatch;
  private final Map<String, String> headers;

  private RequestOptions(Builder b) {
    this.ifMatch = b.ifMatch;
    this.timeout = b.timeout;
    this.maxRetries = b.maxRetries;
    this.idempotencyKey = b.idempotencyKey;
    this.requestId = b.requestId;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Only a per-attempt timeout. */
  public static RequestOptions timeout(Duration timeout) {
    return builder().timeout(timeout).build();
  }

  /**
   * Only an {@code If-Match} of this version: a put, patch or delete of a versioned resource
   * (asset, policy, quality rule) then fails with {@code PreconditionFailedException} when the
   * resource changed meanwhile.
   */
  public static RequestOptions ifMatch(long version) {
    return builder().ifMatch(version).build();
  }

  /** Only an {@code Idempotency-Key}. */
  public static RequestOptions idempotencyKey(String key) {
    return builder().idempotencyKey(key).build();
  }

  /** These options for one of several requests with different bodies: without the key. */
  static RequestOptions perChunk(RequestOptions options) {
    return options == null || options.idempotencyKey == null
        ? options
        : options.toBuilder().idempotencyKey(null).build();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.timeout = timeout;
    b.maxRetries = maxRetries;
    b.idempotencyKey = idempotencyKey;
    b.requestId = requestId;
    b.ifMatch = ifMatch;
    b.headers.putAll(headers);
    return b;
  }

  /** The per-attempt timeout for this call, or null for the client's. */
  public Duration timeout() {
    return timeout;
  }

  /** The retries for this call, or null for the client's. */
  public Integer maxRetries() {
    return maxRetries;
  }

  /** The {@code Idempotency-Key} to send, or null for the client's choice. */
  public String idempotencyKey() {
    return idempotencyKey;
  }

  /** The {@code X-Request-ID} to send, or null to let the service choose one. */
  public String requestId() {
    return requestId;
  }

  /** The version sent as {@code If-Match}, if any. */
  public OptionalLong ifMatch() {
    return ifMatch == null ? OptionalLong.empty() : OptionalLong.of(ifMatch);
  }

  /** Extra headers, sent after (and so replacing) the client's own. */
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public String toString() {
    return "RequestOptions[timeout=" + timeout + ", maxRetries=" + maxRetries + ", idempotencyKey="
        + idempotencyKey + ", requestId=" + requestId + ", ifMatch=" + ifMatch + ", headers=" + headers.keySet() + "]";
  }

  /** Builds {@link RequestOptions}; unset values keep the client's. */
  public static final class Builder {
    private Duration timeout;
    private Integer maxRetries;
    private String idempotencyKey;
    private String requestId;
    private Long ifMatch;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Builder() {}

    /**
     * How long one attempt may take (for the event stream: to open, and the longest silence
     * before it reconnects). Replaces the client's timeout and the longer one of uploads.
     */
    public Builder timeout(Duration timeout) {
      if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
        throw new IllegalArgumentException("timeout must be positive");
      }
      this.timeout = timeout;
      return this;
    }

    /** Retries after the first attempt for this call (0 disables). */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0) {
        throw new IllegalArgumentException("maxRetries must be >= 0");
      }
      this.maxRetries = maxRetries;
      return this;
    }

    /**
     * The {@code Idempotency-Key} of a POST, instead of the fresh one the client makes: the
     * service answers a repeat of the key (within 24 h, same body) with the first answer, so
     * a key derived from your own job id makes the call safe to repeat across restarts.
     */
    public Builder idempotencyKey(String key) {
      this.idempotencyKey = key;
      return this;
    }

    /** Sent as {@code X-Request-ID}; the service logs and answers under it (1-128 of {@code A-Za-z0-9._:-}). */
    public Builder requestId(String requestId) {
      this.requestId = requestId;
      return this;
    }

    /**
     * Sends {@code If-Match: "<version>"}: the put, patch or delete applies only while the
     * resource's version is still this one (else {@code PreconditionFailedException}).
     */
    public Builder ifMatch(long version) {
      this.ifMatch = version;
      return this;
    }

    /** One more header; a null value removes one set before. */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      if (value == null) {
        headers.remove(name);
      } else {
        headers.put(name, value);
      }
      return this;
    }

    public RequestOptions build() {
      return new RequestOptions(this);
    }
  }
}
