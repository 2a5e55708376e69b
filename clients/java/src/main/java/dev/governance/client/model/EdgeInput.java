package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;

/**
 * An edge to write: {@code source -> target}, with an optional transformation (SQL or text)
 * and optional column mappings, which are added to those the edge has.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EdgeInput(String source, String target, String transformation, List<ColumnMapping> columns) {

  public EdgeInput {
    columns = columns == null ? null : List.copyOf(columns);
  }

  public EdgeInput(String source, String target, String transformation) {
    this(source, target, transformation, null);
  }

  public static EdgeInput of(String source, String target) {
    return new EdgeInput(source, target, null, null);
  }

  public static EdgeInput of(String source, String target, String transformation) {
    return new EdgeInput(source, target, transformation, null);
  }

  /** This edge with these column mappings (up to 10,000). */
  public EdgeInput withColumns(ColumnMapping... columns) {
    return new EdgeInput(source, target, transformation, Arrays.asList(columns));
  }

  /** This edge with these column mappings (up to 10,000). */
  public EdgeInput withColumns(List<ColumnMapping> columns) {
    return new EdgeInput(source, target, transformation, columns);
  }
}
