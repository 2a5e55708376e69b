package dev.governance.client.exception;

import dev.governance.client.model.Problem;
import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;

/**
 * What the service said about a failed request: the HTTP status, the problem's stable
 * {@code code}, the request id (from the problem body or the {@code X-Request-ID} header),
 * the parsed RFC 9457 problem (null when the body was not problem JSON), the raw body, and
 * the {@code Retry-After} delay when the response carried one.
 */
public record ErrorDetails(
    int status, String code, String requestId, Problem problem, String body, Duration retryAfter)
    implements Serializable {

  /** The delay the service asked for before a retry, if any. */
  public Optional<Duration> retryAfterDelay() {
    return Optional.ofNullable(retryAfter);
  }
}
