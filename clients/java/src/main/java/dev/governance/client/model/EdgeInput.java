package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An edge to write: {@code source -> target}, with an optional transformation (SQL or text). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EdgeInput(String source, String target, String transformation) {

  public static EdgeInput of(String source, String target) {
    return new EdgeInput(source, target, null);
  }

  public static EdgeInput of(String source, String target, String transformation) {
    return new EdgeInput(source, target, transformation);
  }
}
