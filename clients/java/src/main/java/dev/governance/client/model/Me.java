package dev.governance.client.model;

/**
 * {@code GET /me}: the token the client calls with, and the user who made it (null for a token
 * made with {@code governance token create}).
 */
public record Me(Token token, User user) {}
