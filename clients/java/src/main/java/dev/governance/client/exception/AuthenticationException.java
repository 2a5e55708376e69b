package dev.governance.client.exception;

/** No token, or a malformed, unknown, expired or revoked one (401). */
public class AuthenticationException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public AuthenticationException(ErrorDetails details) {
    super(details);
  }
}
