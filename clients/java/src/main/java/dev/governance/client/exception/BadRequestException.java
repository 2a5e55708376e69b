package dev.governance.client.exception;

/** A request the service refused as malformed (400), or another 4xx without a kind of its own (405, 413, 415). */
public class BadRequestException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public BadRequestException(ErrorDetails details) {
    super(details);
  }
}
