package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer to a dbt manifest upload ({@code POST /lineage/manifest}): what the upload created,
 * updated and (with {@code prune}) removed, nodes skipped, and the reader's warnings.
 */
public record ManifestSummary(
    String project,
    @JsonProperty("dbt_version") String dbtVersion,
    @JsonProperty("dbt_schema_version") String dbtSchemaVersion,
    Assets assets,
    Edges edges,
    @JsonProperty("quality_rules") QualityRules qualityRules,
    long skipped,
    List<String> warnings) {

  public ManifestSummary {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /**
   * Assets made or updated from the manifest's nodes, and those merged into them: a
   * placeholder (or another project's source) holding a dataset of this manifest, merged into
   * the node that defines it (uploads with a namespace only).
   */
  public record Assets(long created, long updated, long merged) {
    public Assets(long created, long updated) {
      this(created, updated, 0);
    }
  }

  /** Lineage edges: new, already present, and removed by pruning. */
  public record Edges(long created, long existing, long removed) {}

  /** Quality rules from the manifest's data tests. */
  public record QualityRules(long created, long updated, long removed) {}
}
