package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * One event's delivery to a webhook: its {@code state} ({@code pending}, {@code delivered},
 * {@code failed} when the service gave up, {@code cancelled}), the attempts so far, the last
 * HTTP status and the service's account of the last failure (never the receiver's body).
 */
public record WebhookDelivery(
    String id,
    @JsonProperty("event_id") String eventId,
    @JsonProperty("event_type") String eventType,
    String state,
    int attempts,
    @JsonProperty("last_status") Integer lastStatus,
    @JsonProperty("last_error") String lastError,
    @JsonProperty("next_attempt_at") Instant nextAttemptAt,
    @JsonProperty("last_attempt_at") Instant lastAttemptAt,
    @JsonProperty("delivered_at") Instant deliveredAt,
    @JsonProperty("created_at") Instant createdAt) {}
