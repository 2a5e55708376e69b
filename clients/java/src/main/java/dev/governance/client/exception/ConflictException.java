package dev.governance.client.exception;

/** A real conflict, such as an id that already exists (409). Never retried. */
public class ConflictException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public ConflictException(ErrorDetails details) {
    super(details);
  }
}
