package dev.governance.client.model;

/** An edge of a traversal answer. */
public record GraphEdge(String source, String target, String transformation) {}
