package dev.governance.client.exception;

/** No answer arrived within the configured timeout. {@link #status()} is 0. */
public class RequestTimeoutException extends ConnectionException {
  private static final long serialVersionUID = 1L;

  public RequestTimeoutException(String message, Throwable cause) {
    super(message, "timeout", cause);
  }
}
