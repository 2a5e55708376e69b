package dev.governance.client.model;

/**
 * An asset's lineage neighbourhood written as a file.
 *
 * @param text the file's content as the service wrote it
 * @param filename the name the service gives the file, such as {@code
 *     lineage-model.shop.orders.dot}: {@code Content-Disposition}'s {@code filename*} (the exact
 *     id, {@code /} as {@code _}) where given, else its ASCII {@code filename}; null when the
 *     answer named none
 * @param truncated true when the neighbourhood was cut at the limit ({@code Lineage-Truncated})
 */
public record LineageExport(String text, String filename, boolean truncated) {}
