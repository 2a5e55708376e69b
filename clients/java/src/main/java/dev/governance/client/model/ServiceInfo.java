package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code GET /api/v1}: the service's name, version and API version ({@code v1}). */
public record ServiceInfo(
    String service, String version, @JsonProperty("api_version") String apiVersion) {}
