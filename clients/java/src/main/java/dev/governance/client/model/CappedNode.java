package dev.governance.client.model;

/**
 * A node of a traversal with more neighbours in {@code direction} than the fanout shows: {@code
 * shown} of its {@code total}.
 */
public record CappedNode(String id, Direction direction, int shown, int total) {}
