package dev.governance.client.exception;

import dev.governance.client.model.Problem;
import java.util.Optional;

/**
 * A real conflict (409), such as an id that already exists ({@code already_exists}) or a
 * dataset another asset created explicitly holds ({@code dataset_taken}, see
 * {@link #holder()}). Never retried.
 */
public class ConflictException extends GovernanceException {
  private static final long serialVersionUID = 1L;

  public ConflictException(ErrorDetails details) {
    super(details);
  }

  /**
   * For {@code dataset_taken}: the id of the asset that holds the dataset; empty for other
   * conflicts (and for a manifest upload, whose problem lists each conflict under
   * {@code conflicts} in {@link Problem#extensions()}).
   */
  public Optional<String> holder() {
    Problem problem = problem();
    return Optional.ofNullable(problem == null ? null : problem.extension("holder"));
  }
}
