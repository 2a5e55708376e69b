package dev.governance.client.exception;

/** The service failed (5xx). */
public class ServerException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public ServerException(ErrorDetails details) {
    super(details);
  }
}
