package dev.governance.client.model;

/**
 * A freshly made webhook and its signing {@code secret} ({@code whsec_...}), which the service
 * shows this once: keep it where the receiver can read it, to verify deliveries with
 * {@link dev.governance.client.Webhooks#verify}. {@link #toString()} hides it.
 */
public record WebhookCreated(Webhook webhook, String secret) {

  /** The new webhook's id. */
  public String id() {
    return webhook.id();
  }

  @Override
  public String toString() {
    return "WebhookCreated[webhook=" + webhook + ", secret=whsec_...]";
  }
}
