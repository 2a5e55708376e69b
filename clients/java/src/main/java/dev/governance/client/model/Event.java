package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One event envelope, as the event log ({@code GET /events}) and webhooks deliver it.
 * {@code seq} orders events; drop duplicates by {@code id}. {@code alert} and {@code severity}
 * are null except on alerts. {@code data} depends on the {@code type}: a JSON object read as
 * maps, lists, strings, numbers ({@code Integer}, {@code Long}, {@code Double}, ...), booleans
 * and nulls; never null itself (empty when the event carries none).
 */
public record Event(
    String id,
    long seq,
    String type,
    @JsonProperty("occurred_at") Instant occurredAt,
    String actor,
    Map<String, Object> data,
    Boolean alert,
    String severity) {

  public Event {
    data = data == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(data));
  }

  /** True for an alert event ({@code alert: true}). */
  public boolean isAlert() {
    return Boolean.TRUE.equals(alert);
  }
}
