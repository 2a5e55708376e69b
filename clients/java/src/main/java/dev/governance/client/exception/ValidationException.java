package dev.governance.client.exception;

import dev.governance.client.model.FieldError;
import java.util.List;

/**
 * The service understood the request but refused its content (422): {@code validation_error},
 * {@code too_many_items}, {@code unknown_assets}, {@code self_loop}, ... {@link #errors()} lists
 * each field problem with its location, e.g. {@code ["body", 3, "target"]}.
 */
public class ValidationException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public ValidationException(ErrorDetails details) {
    super(details);
  }

  /** The field problems; empty when the service listed none. */
  public List<FieldError> errors() {
    return fieldErrors();
  }
}
