package dev.governance.client.model;

/**
 * How {@code lineage().uploadManifest(...)} ingests a dbt manifest; every field is optional.
 *
 * <ul>
 *   <li>{@code project}: the project name (null: the manifest's own); edges get origin
 *       {@code dbt:<project>}.
 *   <li>{@code namespace}: the warehouse's dataset namespace as OpenLineage names it (e.g.
 *       {@code snowflake://acme-prod}, {@code postgres://db:5432}). Each model, seed, snapshot
 *       and source then holds the dataset {@code (namespace, database.schema.identifier)}, so
 *       the assets other tools name by that table (OpenLineage, SQL ingestion, edges by
 *       dataset) are one with them: a placeholder holding it is merged into the node
 *       ({@link ManifestSummary.Assets#merged()}). Null: the namespace the service is
 *       configured with for the manifest's adapter, if any.
 *   <li>{@code prune}: remove edges and rules an earlier upload of the project made and this
 *       one lacks (default true).
 * </ul>
 *
 * <pre>{@code
 * ManifestOptions.defaults().withNamespace("snowflake://acme-prod").withProject("shop")
 * }</pre>
 */
public record ManifestOptions(String project, String namespace, boolean prune) {

  /** The manifest's own project name, the configured namespace, pruning. */
  public static ManifestOptions defaults() {
    return new ManifestOptions(null, null, true);
  }

  /** The defaults with this project name. */
  public static ManifestOptions project(String project) {
    return new ManifestOptions(project, null, true);
  }

  /** The defaults with this warehouse namespace. */
  public static ManifestOptions namespace(String namespace) {
    return new ManifestOptions(null, namespace, true);
  }

  public ManifestOptions withProject(String value) {
    return new ManifestOptions(value, namespace, prune);
  }

  public ManifestOptions withNamespace(String value) {
    return new ManifestOptions(project, value, prune);
  }

  public ManifestOptions withPrune(boolean value) {
    return new ManifestOptions(project, namespace, value);
  }
}
