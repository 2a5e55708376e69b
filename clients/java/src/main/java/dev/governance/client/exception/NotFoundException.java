package dev.governance.client.exception;

/** The asset, edge or token does not exist (404). */
public class NotFoundException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(ErrorDetails details) {
    super(details);
  }
}
