package dev.governance.client.exception;

/** Too many requests (429); {@link #retryAfter()} says how long to wait. */
public class RateLimitedException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public RateLimitedException(ErrorDetails details) {
    super(details);
  }
}
