package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;

/**
 * The body of {@code PATCH /webhooks/{id}}: the fields set change, the others keep their value.
 * Enabling a disabled webhook clears its failure state.
 *
 * <pre>{@code
 * client.webhooks().update(id, WebhookUpdate.create().enabled(true).types("asset.*"));
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WebhookUpdate(String url, List<String> types, Boolean enabled, String description) {

  public WebhookUpdate {
    types = types == null ? null : List.copyOf(types);
  }

  /** An update that changes nothing yet. */
  public static WebhookUpdate create() {
    return new WebhookUpdate(null, null, null, null);
  }

  public WebhookUpdate url(String url) {
    return new WebhookUpdate(url, types, enabled, description);
  }

  public WebhookUpdate types(String... types) {
    return new WebhookUpdate(url, Arrays.asList(types), enabled, description);
  }

  public WebhookUpdate enabled(boolean enabled) {
    return new WebhookUpdate(url, types, enabled, description);
  }

  public WebhookUpdate description(String description) {
    return new WebhookUpdate(url, types, enabled, description);
  }
}
