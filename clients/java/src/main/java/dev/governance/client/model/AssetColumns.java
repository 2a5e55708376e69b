package dev.governance.client.model;

import java.util.List;

/**
 * An asset's columns as column classification sees them, as {@code assets().columns(id)} reads
 * them: the declared columns in their order, then the columns known only to column lineage that
 * hold or inherit a tag.
 */
public record AssetColumns(String asset, List<AssetColumn> columns) {

  public AssetColumns {
    columns = columns == null ? List.of() : List.copyOf(columns);
  }
}
