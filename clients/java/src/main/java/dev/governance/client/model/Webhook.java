package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A webhook endpoint (never its secret). {@code types} are event types or {@code prefix.*}
 * patterns ({@code *} for all). After failing deliveries for long enough the service disables
 * it and says why in {@code disabledReason}; enabling it again clears that.
 */
public record Webhook(
    String id,
    String url,
    List<String> types,
    boolean enabled,
    String description,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt,
    @JsonProperty("failing_since") Instant failingSince,
    @JsonProperty("disabled_reason") String disabledReason,
    @JsonProperty("last_delivery_at") Instant lastDeliveryAt) {

  public Webhook {
    types = types == null ? List.of() : List.copyOf(types);
  }
}
