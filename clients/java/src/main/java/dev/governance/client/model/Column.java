package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** A column of an asset. Only {@code name} is required. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Column(String name, String type, String description, List<String> tags) {

  public Column {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  public static Column of(String name, String type) {
    return new Column(name, type, null, List.of());
  }
}
