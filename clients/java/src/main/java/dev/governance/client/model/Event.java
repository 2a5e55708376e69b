package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One event envelope, as the event log ({@code GET /events}) and webhooks deliver it.
 * {@code seq} orders events; drop duplicates by {@code id}. {@code alert} and {@code severity}
 * are null except on alerts. {@code data} depends on the {@code type}.
 */
public record Event(
    String id,
    long seq,
    String type,
    @JsonProperty("occurred_at") Instant occurredAt,
    String actor,
    JsonNode data,
    Boolean alert,
    String severity) {

  /** True for an alert event ({@code alert: true}). */
  public boolean isAlert() {
    return Boolean.TRUE.equals(alert);
  }
}
