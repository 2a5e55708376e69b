package dev.governance.client.model;

/**
 * Nodes counted on each side of a traversal's root; a side the traversal does not walk counts 0.
 */
public record SideCounts(int upstream, int downstream) {
  static final SideCounts NONE = new SideCounts(0, 0);
}
