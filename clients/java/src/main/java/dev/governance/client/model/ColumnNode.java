package dev.governance.client.model;

/** A column reached by a column traversal, at its fewest-hop {@code distance} (0 for the root). */
public record ColumnNode(String asset, String column, int distance) {

  public ColumnRef ref() {
    return new ColumnRef(asset, column);
  }
}
