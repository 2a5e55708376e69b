package dev.governance.client.model;

/** {@code GET /healthz} ({@code ok}) and {@code GET /readyz} ({@code ready}). */
public record Health(String status) {}
