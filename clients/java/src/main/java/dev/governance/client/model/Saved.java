package dev.governance.client.model;

/**
 * The answer to an upsert: the stored value, and whether this call created it (201) rather
 * than updating what was there (200).
 */
public record Saved<T>(T value, boolean created) {}
