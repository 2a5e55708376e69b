package dev.governance.client.model;

/** A column of an asset: {@code asset} is the asset id, {@code column} the column name. */
public record ColumnRef(String asset, String column) {}
