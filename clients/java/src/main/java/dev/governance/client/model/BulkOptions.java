package dev.governance.client.model;

/**
 * How {@code lineage().bulk(...)} writes its edges: {@code strict} (unknown ids are 422
 * {@code unknown_assets} instead of placeholders), {@code origin} (the writer asserting them,
 * e.g. {@code airflow:warehouse_sync}; null: {@code api}) and {@code replace} (the request is
 * that origin's whole edge set: the edges it asserted before and not now are retired, counted
 * in {@link BulkResult#retired()}; an edge another origin still asserts stays). A replacement
 * needs an origin and is one request.
 *
 * <pre>{@code
 * BulkOptions.origin("airflow:warehouse_sync").withReplace(true)
 * }</pre>
 */
public record BulkOptions(boolean strict, String origin, boolean replace) {

  public BulkOptions {
    if (replace && origin == null) {
      throw new IllegalArgumentException("replace needs an origin: the edge set it replaces is that origin's");
    }
  }

  /** Placeholders for unknown ids, origin {@code api}, merged into what is there. */
  public static BulkOptions defaults() {
    return new BulkOptions(false, null, false);
  }

  /** The defaults with this origin. */
  public static BulkOptions origin(String origin) {
    return new BulkOptions(false, origin, false);
  }

  public BulkOptions withStrict(boolean value) {
    return new BulkOptions(value, origin, replace);
  }

  public BulkOptions withOrigin(String value) {
    return new BulkOptions(strict, value, replace);
  }

  public BulkOptions withReplace(boolean value) {
    return new BulkOptions(strict, origin, value);
  }
}
