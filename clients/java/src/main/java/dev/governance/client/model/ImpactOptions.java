package dev.governance.client.model;

/**
 * How {@code lineage().checkManifest(...)} reads a candidate manifest, as the upload would:
 * {@code project} (null: the manifest's own name) and {@code namespace} (null: the one the
 * service is configured with for the adapter; see {@link ManifestOptions}); and how many hops
 * downstream it walks, {@code depth} (null: the service's maximum lineage depth).
 *
 * <pre>{@code
 * ImpactOptions.project("shop").withNamespace("snowflake://acme-prod").withDepth(3)
 * }</pre>
 */
public record ImpactOptions(String project, String namespace, Integer depth) {

  public ImpactOptions {
    if (depth != null && depth < 1) {
      throw new IllegalArgumentException("depth must be >= 1, got " + depth);
    }
  }

  /** The manifest's own project name, the configured namespace, the deepest walk. */
  public static ImpactOptions defaults() {
    return new ImpactOptions(null, null, null);
  }

  /** The defaults with this project name. */
  public static ImpactOptions project(String project) {
    return new ImpactOptions(project, null, null);
  }

  public ImpactOptions withProject(String value) {
    return new ImpactOptions(value, namespace, depth);
  }

  public ImpactOptions withNamespace(String value) {
    return new ImpactOptions(project, value, depth);
  }

  public ImpactOptions withDepth(int value) {
    return new ImpactOptions(project, namespace, value);
  }
}
