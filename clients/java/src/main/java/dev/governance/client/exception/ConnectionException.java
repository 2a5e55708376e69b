package dev.governance.client.exception;

/**
 * No HTTP answer arrived: the connection was refused or reset, the name did not resolve, or
 * the call was interrupted. {@link #status()} is 0. Retried like a 503 (see the README).
 */
public class ConnectionException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public ConnectionException(String message, Throwable cause) {
    this(message, "connection_error", cause);
  }

  protected ConnectionException(String message, String code, Throwable cause) {
    super(message, 0, code, null, cause);
  }
}
