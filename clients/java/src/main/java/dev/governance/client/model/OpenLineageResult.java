package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer to an OpenLineage ingestion: run events received, COMPLETE ones (those that carry
 * lineage), distinct runs whose state was recorded, edges and column mappings written (new or
 * existing), placeholder assets made and assets whose columns a {@code schema} facet changed,
 * and warnings. {@link #plus} sums chunked ingestions (a run spread over two chunks then counts
 * twice in {@code runs}).
 */
public record OpenLineageResult(
    long received,
    long complete,
    long runs,
    Counts edges,
    @JsonProperty("column_mappings") Counts columnMappings,
    AssetChanges assets,
    List<String> warnings) {

  public static final OpenLineageResult EMPTY =
      new OpenLineageResult(0, 0, 0, Counts.ZERO, Counts.ZERO, new AssetChanges(0, 0), List.of());

  public OpenLineageResult {
    edges = edges == null ? Counts.ZERO : edges;
    columnMappings = columnMappings == null ? Counts.ZERO : columnMappings;
    assets = assets == null ? new AssetChanges(0, 0) : assets;
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /** Placeholder assets made for unknown datasets, and assets whose columns changed. */
  public record AssetChanges(long created, long updated) {}

  public OpenLineageResult plus(OpenLineageResult other) {
    List<String> allWarnings = new ArrayList<>(warnings);
    allWarnings.addAll(other.warnings);
    return new OpenLineageResult(
        received + other.received,
        complete + other.complete,
        runs + other.runs,
        edges.plus(other.edges),
        columnMappings.plus(other.columnMappings),
        new AssetChanges(assets.created + other.assets.created, assets.updated + other.assets.updated),
        allWarnings);
  }
}
