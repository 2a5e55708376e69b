package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A physical dataset, named as OpenLineage names it: a {@code namespace} (where it lives,
 * e.g. {@code snowflake://acme-prod}, {@code postgres://db:5432}, {@code s3://bucket}) and a
 * {@code name} in it (e.g. {@code ANALYTICS.PUBLIC.ORDERS}). At most one asset holds a dataset.
 *
 * <p>Sent as given; the service stores and answers it normalised by the platform's naming
 * rules (Snowflake upper-cases unquoted names, Postgres lower-cases them, default ports are
 * added: {@code postgres://db} becomes {@code postgres://db:5432}), so any spelling that the
 * rules make equal names the same dataset.
 *
 * <p>A dataset is also an {@link EdgeEnd}: an edge may name it instead of an asset id, and the
 * edge then joins the asset holding it (a placeholder with the id
 * {@code <namespace>/<name>}, normalised, is made when nobody does).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Dataset(String namespace, String name) implements EdgeEnd {

  /** The dataset {@code name} in {@code namespace}. */
  public static Dataset of(String namespace, String name) {
    return new Dataset(namespace, name);
  }
}
