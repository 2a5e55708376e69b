package dev.governance.client.exception;

/**
 * A webhook delivery that must not be trusted: a missing header, no matching signature, a
 * timestamp outside the tolerance, or a body that is not an event envelope. Answer such a
 * request with 400 (or 401) and do not act on it. {@link #status()} is 0.
 */
public class WebhookVerificationException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public WebhookVerificationException(String message) {
    this(message, null);
  }

  public WebhookVerificationException(String message, Throwable cause) {
    super(message, 0, "webhook_verification_failed", null, cause);
  }
}
