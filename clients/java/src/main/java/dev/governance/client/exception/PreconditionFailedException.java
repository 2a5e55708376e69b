package dev.governance.client.exception;

/** An {@code If-Match} version that is no longer current (412); nothing was changed. */
public class PreconditionFailedException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public PreconditionFailedException(ErrorDetails details) {
    super(details);
  }
}
