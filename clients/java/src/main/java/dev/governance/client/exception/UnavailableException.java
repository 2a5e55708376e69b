package dev.governance.client.exception;

/** The service or its database is unreachable or busy (503); {@link #retryAfter()} says how long to wait. */
public class UnavailableException extends ServerException {
  private static final long serialVersionUID = 1L;

  public UnavailableException(ErrorDetails details) {
    super(details);
  }
}
