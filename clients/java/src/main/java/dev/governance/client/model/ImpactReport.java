package dev.governance.client.model;

import java.util.List;

/**
 * What uploading a candidate dbt manifest would change and break ({@code POST
 * /impact/manifest}, which writes nothing): the candidate's {@code changes} against the stored
 * {@code project}, every asset downstream of a breaking change ({@code impacted}, nearest
 * first), whether any change is {@code breaking}, and how many hops downstream the walk went
 * at most ({@code depth}).
 */
public record ImpactReport(
    String project, List<Change> changes, List<Impacted> impacted, boolean breaking, int depth) {

  public ImpactReport {
    changes = changes == null ? List.of() : List.copyOf(changes);
    impacted = impacted == null ? List.of() : List.copyOf(impacted);
  }

  /**
   * One difference: {@code kind} is {@code model_removed}, {@code column_removed}, {@code
   * column_type_changed}, {@code test_removed}, {@code model_added}, {@code column_added},
   * {@code materialization_changed} or another the service knows; {@code from} and {@code to}
   * are the stored and the candidate's value (a column's type, a materialization, ...);
   * {@code column}, {@code from} and {@code to} are null where the kind has none. Removals and
   * type changes are breaking.
   */
  public record Change(
      String kind, String asset, String column, String from, String to, boolean breaking) {}

  /**
   * An asset (or one of its columns, where column lineage says) that reads what a breaking
   * change touches: {@code distance} hops downstream, its {@code owners}, and the path {@code
   * via} from the changed asset (first) to this one (last): asset ids, or {@code asset.column}
   * for a column.
   */
  public record Impacted(
      String asset, String column, int distance, List<String> owners, List<String> via) {

    public Impacted {
      owners = owners == null ? List.of() : List.copyOf(owners);
      via = via == null ? List.of() : List.copyOf(via);
    }
  }
}
