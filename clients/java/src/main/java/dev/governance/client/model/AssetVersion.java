package dev.governance.client.model;

import java.time.Instant;
import java.util.List;

/**
 * One version of an asset, as {@code assets().history(id)} reads them (newest first): its
 * number, when and by whom ({@code token:<id>}, {@code user:<id>}, or {@code system} for an
 * asset that existed before history was kept) it was made, whether it says the asset was
 * {@code deleted}, and what it changed from the version before.
 */
public record AssetVersion(
    long version, Instant at, String actor, boolean deleted, List<Change> changes) {

  public AssetVersion {
    changes = changes == null ? List.of() : List.copyOf(changes);
  }

  /**
   * One difference: a field ({@code change} {@code set}, {@code column} null) with its old and
   * new value, or, with {@code field} {@code columns}, one column {@code added}, {@code
   * removed}, {@code retyped} or {@code changed} ({@code from} and {@code to} then the column as
   * declared). Values are JSON values read as maps, lists, strings, numbers and booleans; null
   * where there is none.
   */
  public record Change(String field, String column, String change, Object from, Object to) {}
}
