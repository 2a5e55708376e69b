package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a {@link Query} answers. */
public enum QueryReturn {
  /** Assets, nearest first (the default, except for path queries). */
  NODES,
  /** Every lineage edge between two returned assets. */
  EDGES,
  /** A page of nodes and the edges among them. */
  GRAPH,
  /** Each path as its asset ids (path queries; their default). */
  PATHS,
  /** How many assets (or paths) answer. */
  COUNT;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
