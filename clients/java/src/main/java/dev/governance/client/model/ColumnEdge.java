package dev.governance.client.model;

/** A column mapping of a column traversal, in data-flow direction: {@code source -> target}. */
public record ColumnEdge(ColumnRef source, ColumnRef target, String transformation) {}
