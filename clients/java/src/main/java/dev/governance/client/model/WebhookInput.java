package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;

/**
 * The body of {@code POST /webhooks}. The URL must be https and resolve to public addresses
 * (unless the service allows private ones); {@code types} default to every event ({@code *}),
 * {@code enabled} to true. Null fields are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WebhookInput(String url, List<String> types, Boolean enabled, String description) {

  public WebhookInput {
    types = types == null ? null : List.copyOf(types);
  }

  /** A webhook for these types or {@code prefix.*} patterns (none: every event). */
  public static WebhookInput of(String url, String... types) {
    return new WebhookInput(url, types.length == 0 ? null : Arrays.asList(types), null, null);
  }

  public WebhookInput withDescription(String description) {
    return new WebhookInput(url, types, enabled, description);
  }

  public WebhookInput withEnabled(boolean enabled) {
    return new WebhookInput(url, types, enabled, description);
  }
}
