package dev.governance.client.model;

/** How many things a write made ({@code created}) and how many were there already. */
public record Counts(long created, long existing) {
  public static final Counts ZERO = new Counts(0, 0);

  public Counts plus(Counts other) {
    return other == null ? this : new Counts(created + other.created, existing + other.existing);
  }
}
