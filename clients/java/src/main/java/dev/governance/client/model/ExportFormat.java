package dev.governance.client.model;

import java.util.Locale;

/** The file format of a lineage export, with the media type the service answers in. */
public enum ExportFormat {
  /**
   * A JSON array of COMPLETE run events, which {@code lineage().openLineage(...)} takes back into
   * the same graph.
   */
  OPENLINEAGE("application/json"),
  /** A GraphViz digraph. */
  DOT("text/vnd.graphviz"),
  /** A Mermaid flowchart. */
  MERMAID("text/vnd.mermaid"),
  /** One table of node, edge and column rows. */
  CSV("text/csv");

  private final String mediaType;

  ExportFormat(String mediaType) {
    this.mediaType = mediaType;
  }

  /** The wire form: {@code openlineage}, {@code dot}, {@code mermaid} or {@code csv}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The media type of the service's answer, without parameters. */
  public String mediaType() {
    return mediaType;
  }
}
