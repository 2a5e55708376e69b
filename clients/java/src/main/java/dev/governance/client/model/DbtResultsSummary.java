package dev.governance.client.model;

import java.util.List;

/**
 * The answer to a dbt {@code run_results.json} upload: results in the file ({@code received}),
 * test results recorded against a rule, test ids without a rule ({@code unmatched}: upload the
 * manifest first), tests dbt {@code skipped}, model and seed results {@code ignored}, results
 * older than their rule's newest ({@code stale}), results this invocation already recorded
 * ({@code duplicates}), and the rules that turned {@code failed} or {@code recovered}.
 */
public record DbtResultsSummary(
    long received,
    long recorded,
    List<String> unmatched,
    long skipped,
    long ignored,
    long stale,
    long duplicates,
    List<String> failed,
    List<String> recovered) {

  public DbtResultsSummary {
    unmatched = unmatched == null ? List.of() : List.copyOf(unmatched);
    failed = failed == null ? List.of() : List.copyOf(failed);
    recovered = recovered == null ? List.of() : List.copyOf(recovered);
  }
}
