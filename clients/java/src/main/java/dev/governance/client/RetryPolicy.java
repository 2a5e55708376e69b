package dev.governance.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * When to retry and how long to wait; pure, so the shared vectors test it directly.
 *
 * <ul>
 *   <li>Only connection errors, timeouts, 408, 429 and 5xx are retried; a 409 or any other 4xx
 *       never is.
 *   <li>GET, HEAD, OPTIONS, PUT and DELETE are retried freely; POST and PATCH only when the
 *       request carries an {@code Idempotency-Key} (or, for the query facility's POSTs, only
 *       reads).
 *   <li>The wait is exponential with full jitter: retry n waits a random time between 0 and
 *       {@code 0.5 s * 2^n}, at most 8 s. A {@code Retry-After} from the service replaces it,
 *       capped at 60 s.
 * </ul>
 */
final class RetryPolicy {
  static final Duration INITIAL_DELAY = Duration.ofMillis(500);
  static final Duration MAX_DELAY = Duration.ofSeconds(8);
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

  private static final Set<String> REPLAYABLE = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");

  private final DoubleSupplier random;

  RetryPolicy() {
    this(Math::random);
  }

  /** {@code random} answers in [0, 1); tests fix it. */
  RetryPolicy(DoubleSupplier random) {
    this.random = random;
  }

  /** Whether a request may be sent again at all: safe by method, or made safe by a key. */
  static boolean isReplayable(String method, boolean hasIdempotencyKey) {
    return REPLAYABLE.contains(method.toUpperCase(Locale.ROOT)) || hasIdempotencyKey;
  }

  /** Whether an answer with this status is worth retrying. */
  static boolean isRetryableStatus(int status) {
    return status == 408 || status == 429 || (status >= 500 && status <= 599);
  }

  /** The decision for an HTTP answer, ignoring how many attempts are left. */
  static boolean shouldRetry(String method, int status, boolean hasIdempotencyKey) {
    return isRetryableStatus(status) && isReplayable(method, hasIdempotencyKey);
  }

  /**
   * How long to wait before retry number {@code attempt} (0 for the first retry): the
   * service's {@code Retry-After} when it sent one (at most 60 s), else full jitter.
   */
  Duration delay(int attempt, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter;
    }
    long ceiling = INITIAL_DELAY.toMillis() << Math.min(attempt, 20);
    ceiling = Math.min(ceiling, MAX_DELAY.toMillis());
    return Duration.ofMillis((long) (ceiling * random.getAsDouble()));
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
