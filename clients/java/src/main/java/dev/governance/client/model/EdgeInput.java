package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;

/**
 * An edge to write: {@code source -> target}, with an optional transformation (SQL or text)
 * and optional column mappings, which are added to those the edge has. Each end is an asset id
 * or a {@link Dataset} ({@link EdgeEnd}); a dataset resolves to the asset holding it, and
 * nobody holding it makes a placeholder (unless the write is {@code strict}).
 *
 * <pre>{@code
 * EdgeInput.of("model.shop.orders", "dash.finance");
 * EdgeInput.of(Dataset.of("snowflake://acme-prod", "RAW.PUBLIC.ORDERS"), "model.shop.orders");
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EdgeInput(EdgeEnd source, EdgeEnd target, String transformation, List<ColumnMapping> columns) {

  public EdgeInput {
    columns = columns == null ? null : List.copyOf(columns);
  }

  /** An edge between two asset ids. */
  public EdgeInput(String source, String target, String transformation, List<ColumnMapping> columns) {
    this(id(source), id(target), transformation, columns);
  }

  /** An edge between two asset ids. */
  public EdgeInput(String source, String target, String transformation) {
    this(id(source), id(target), transformation, null);
  }

  public EdgeInput(EdgeEnd source, EdgeEnd target, String transformation) {
    this(source, target, transformation, null);
  }

  public static EdgeInput of(String source, String target) {
    return new EdgeInput(id(source), id(target), null, null);
  }

  public static EdgeInput of(String source, String target, String transformation) {
    return new EdgeInput(id(source), id(target), transformation, null);
  }

  /** An edge whose ends are asset ids ({@link EdgeEnd#asset}) or datasets, in any mix. */
  public static EdgeInput of(EdgeEnd source, EdgeEnd target) {
    return new EdgeInput(source, target, null, null);
  }

  public static EdgeInput of(EdgeEnd source, EdgeEnd target, String transformation) {
    return new EdgeInput(source, target, transformation, null);
  }

  /** From the dataset into the asset with this id. */
  public static EdgeInput of(Dataset source, String target) {
    return new EdgeInput(source, id(target), null, null);
  }

  /** From the asset with this id into the dataset. */
  public static EdgeInput of(String source, Dataset target) {
    return new EdgeInput(id(source), target, null, null);
  }

  /** This edge with these column mappings (up to 10,000). */
  public EdgeInput withColumns(ColumnMapping... columns) {
    return new EdgeInput(source, target, transformation, Arrays.asList(columns));
  }

  /** This edge with these column mappings (up to 10,000). */
  public EdgeInput withColumns(List<ColumnMapping> columns) {
    return new EdgeInput(source, target, transformation, columns);
  }

  /** This edge with a transformation (SQL or text). */
  public EdgeInput withTransformation(String transformation) {
    return new EdgeInput(source, target, transformation, columns);
  }

  private static EdgeEnd id(String id) {
    return id == null ? null : new EdgeEnd.AssetId(id);
  }
}
