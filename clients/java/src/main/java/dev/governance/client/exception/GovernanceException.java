package dev.governance.client.exception;

import dev.governance.client.model.FieldError;
import dev.governance.client.model.Problem;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Base of every failure the client reports. Unchecked.
 *
 * <pre>
 * GovernanceException                       status  typical codes
 * ├── BadRequestException                     400, 405, 413, 415, other 4xx
 * ├── AuthenticationException                 401     unauthenticated, invalid_token
 * ├── PermissionException                     403     insufficient_scope
 * │   └── DomainForbiddenException            403     domain_forbidden (refused assets)
 * ├── NotFoundException                       404     not_found, asset_not_found, ...
 * ├── ConflictException                       409     already_exists, idempotency_key_in_use
 * ├── PreconditionFailedException             412     precondition_failed (If-Match)
 * ├── ValidationException                     422     validation_error, unknown_assets, ...
 * ├── RateLimitedException                    429     rate_limited (Retry-After)
 * ├── ServerException                         5xx     internal_error
 * │   └── UnavailableException                503     neo4j_unavailable (Retry-After)
 * ├── ConnectionException                     -       no HTTP answer (refused, reset, DNS)
 * │   └── RequestTimeoutException             -       no answer within the timeout
 * └── WebhookVerificationException            -       Webhooks.verify refused a delivery
 * </pre>
 *
 * For a connection failure {@link #status()} is 0 and {@link #problem()} is null.
 */
public class GovernanceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorDetails details;

  /** An error built from an HTTP answer. */
  public GovernanceException(ErrorDetails details) {
    super(describe(details));
    this.details = details;
  }

  /** An error without an HTTP answer (connection failures, unreadable responses). */
  public GovernanceException(String message, int status, String code, String requestId, Throwable cause) {
    super(message, cause);
    this.details = new ErrorDetails(status, code, requestId, null, null, null);
  }

  /**
   * The exception class for an HTTP error answer. The status decides the kind; the problem's
   * {@code code} refines what happened within it.
   */
  public static GovernanceException of(ErrorDetails details) {
    int status = details.status();
    return switch (status) {
      case 401 -> new AuthenticationException(details);
      case 403 ->
          "domain_forbidden".equals(details.code())
              ? new DomainForbiddenException(details)
              : new PermissionException(details);
      case 404 -> new NotFoundException(details);
      case 409 -> new ConflictException(details);
      case 412 -> new PreconditionFailedException(details);
      case 422 -> new ValidationException(details);
      case 429 -> new RateLimitedException(details);
      case 503 -> new UnavailableException(details);
      default -> {
        if (status >= 500 && status <= 599) {
          yield new ServerException(details);
        }
        if (status >= 400 && status <= 499) {
          yield new BadRequestException(details);
        }
        yield new GovernanceException(details);
      }
    };
  }

  /** The HTTP status, or 0 when no answer arrived. */
  public int status() {
    return details.status();
  }

  /** The problem's stable snake_case code, e.g. {@code already_exists}; may be null. */
  public String code() {
    return details.code();
  }

  /** The request id the service logged this request under; may be null. */
  public String requestId() {
    return details.requestId();
  }

  /** The RFC 9457 problem body, or null when the answer held none. */
  public Problem problem() {
    return details.problem();
  }

  /** The raw response body, or null. */
  public String body() {
    return details.body();
  }

  /** Field problems listed by the service (mostly on 422); empty when none. */
  public List<FieldError> fieldErrors() {
    Problem problem = details.problem();
    return problem == null ? List.of() : problem.errors();
  }

  /** The {@code Retry-After} delay the service asked for (429, 503), if any. */
  public Optional<Duration> retryAfter() {
    return details.retryAfterDelay();
  }

  /** Everything above in one value. */
  public ErrorDetails details() {
    return details;
  }

  private static String describe(ErrorDetails d) {
    StringBuilder text = new StringBuilder("HTTP ").append(d.status());
    if (d.code() != null) {
      text.append(' ').append(d.code());
    }
    Problem p = d.problem();
    String detail = p == null ? null : (p.detail() != null ? p.detail() : p.title());
    if (detail != null) {
      text.append(": ").append(detail);
    } else if (d.body() != null && !d.body().isBlank()) {
      String body = d.body().strip();
      text.append(": ").append(body.length() > 200 ? body.substring(0, 200) + "..." : body);
    }
    if (p != null && !p.errors().isEmpty()) {
      text.append(" [")
          .append(p.errors().stream().limit(5).map(FieldError::toString).collect(Collectors.joining("; ")))
          .append(p.errors().size() > 5 ? "; ..." : "")
          .append(']');
    }
    if (d.requestId() != null) {
      text.append(" (request id ").append(d.requestId()).append(')');
    }
    return text.toString();
  }
}
