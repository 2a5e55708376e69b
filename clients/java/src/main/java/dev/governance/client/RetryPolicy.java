package dev.governance.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * When to retry and how long to wait; pure, so the shared vectors test it directly.
 *
 * <ul>
 *   <li>Only connection errors, 429 and 5xx are retried; a 409 or any other 4xx never is.
 *   <li>GET, HEAD, OPTIONS, PUT and DELETE are retried freely; POST and PATCH only when the
 *       request carries an {@code Idempotency-Key}.
 *   <li>The wait is exponential with jitter: attempt n waits between half and all of
 *       {@code initialDelay * 2^n}, at most {@code maxDelay}. A {@code Retry-After} from the
 *       service replaces it; one longer than {@code maxRetryAfter} ends the retries, since
 *       retrying sooner than asked would only fail again.
 * </ul>
 */
final class RetryPolicy {
  static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMillis(500);
  static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(8);
  static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(60);

  private static final Set<String> REPLAYABLE = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");

  private final int maxRetries;
  private final Duration initialDelay;
  private final Duration maxDelay;
  private final Duration maxRetryAfter;
  private final DoubleSupplier random;

  RetryPolicy(int maxRetries) {
    this(maxRetries, DEFAULT_INITIAL_DELAY, DEFAULT_MAX_DELAY, DEFAULT_MAX_RETRY_AFTER, Math::random);
  }

  RetryPolicy(
      int maxRetries,
      Duration initialDelay,
      Duration maxDelay,
      Duration maxRetryAfter,
      DoubleSupplier random) {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0");
    }
    this.maxRetries = maxRetries;
    this.initialDelay = initialDelay;
    this.maxDelay = maxDelay;
    this.maxRetryAfter = maxRetryAfter;
    this.random = random;
  }

  int maxRetries() {
    return maxRetries;
  }

  /** Whether a request may be sent again at all: safe by method, or made safe by a key. */
  static boolean isReplayable(String method, boolean hasIdempotencyKey) {
    return REPLAYABLE.contains(method.toUpperCase(Locale.ROOT)) || hasIdempotencyKey;
  }

  /** Whether an answer with this status is worth retrying. */
  static boolean isRetryableStatus(int status) {
    return status == 429 || (status >= 500 && status <= 599);
  }

  /** The decision for an HTTP answer, ignoring how many attempts are left. */
  static boolean shouldRetry(String method, int status, boolean hasIdempotencyKey) {
    return isRetryableStatus(status) && isReplayable(method, hasIdempotencyKey);
  }

  /** The decision for a connection error or timeout, ignoring how many attempts are left. */
  static boolean shouldRetryConnectionError(String method, boolean hasIdempotencyKey) {
    return isReplayable(method, hasIdempotencyKey);
  }

  /**
   * How long to wait before retry number {@code attempt} (0 for the first retry), or empty when
   * the service asked for a longer wait than this policy accepts.
   */
  Optional<Duration> delay(int attempt, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(maxRetryAfter) > 0 ? Optional.empty() : Optional.of(retryAfter);
    }
    long ceiling = initialDelay.toMillis() << Math.min(attempt, 20);
    ceiling = Math.min(ceiling, maxDelay.toMillis());
    double fraction = 0.5 + 0.5 * random.getAsDouble();
    return Optional.of(Duration.ofMillis((long) (ceiling * fraction)));
  }

  /**
   * A {@code Retry-After} header as a delay: delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
   * Null when the header is absent or cannot be read.
   */
  static Duration parseRetryAfter(String header, Instant now) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String value = header.strip();
    if (value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Duration.ofSeconds(Long.parseLong(value));
      } catch (NumberFormatException tooBig) {
        return null;
      }
    }
    try {
      Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration wait = Duration.between(now, at);
      return wait.isNegative() ? Duration.ZERO : wait;
    } catch (DateTimeParseException notADate) {
      return null;
    }
  }
}
