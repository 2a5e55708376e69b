package dev.governance.client.exception;

/** A valid token without the scope the operation needs (403 {@code insufficient_scope}). */
public class PermissionException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public PermissionException(ErrorDetails details) {
    super(details);
  }
}
