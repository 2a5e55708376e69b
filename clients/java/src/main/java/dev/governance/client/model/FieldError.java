package dev.governance.client.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One field problem of a 422 answer: where ({@code loc}, e.g. {@code ["body", 3, "target"]}),
 * what ({@code msg}) and its machine-readable {@code type}.
 */
public record FieldError(List<Object> loc, String msg, String type) implements Serializable {

  public FieldError {
    loc = loc == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(loc));
  }

  /** The location joined with dots, e.g. {@code body.3.target}. */
  public String path() {
    return loc.stream().map(String::valueOf).collect(Collectors.joining("."));
  }

  @Override
  public String toString() {
    return path() + ": " + msg;
  }
}
