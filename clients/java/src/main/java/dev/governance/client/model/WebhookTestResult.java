package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What happened to a signed {@code webhook.test} event sent now: whether the receiver took it
 * (2xx), its status, the service's account of a failure, and how long it took.
 */
public record WebhookTestResult(
    boolean delivered, Integer status, String error, @JsonProperty("duration_ms") double durationMs) {}
