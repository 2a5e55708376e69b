package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.governance.client.model.Page;
import dev.governance.client.model.Webhook;
import dev.governance.client.model.WebhookCreated;
import dev.governance.client.model.WebhookDelivery;
import dev.governance.client.model.WebhookInput;
import dev.governance.client.model.WebhookTestResult;
import dev.governance.client.model.WebhookUpdate;

/**
 * {@code /webhooks}: endpoints the service delivers events to, signed the Standard Webhooks
 * way (verify them with {@link Webhooks#verify}). Every operation needs the {@code admin}
 * scope. Obtain it with {@link GovernanceClient#webhooks()}.
 */
public final class WebhooksService {
  private static final TypeReference<Page<Webhook>> PAGE = new TypeReference<>() {};
  private static final TypeReference<Page<WebhookDelivery>> DELIVERIES = new TypeReference<>() {};
  private final Requester http;

  WebhooksService(Requester http) {
    this.http = http;
  }

  /** Every webhook (never a secret), paged automatically. */
  public PagedIterable<Webhook> list() {
    return list(RequestOptions.DEFAULTS);
  }

  /** As {@link #list()}, each page sent with {@code options}. */
  public PagedIterable<Webhook> list(RequestOptions options) {
    return PagedIterable.of(http, "/webhooks", options, PAGE);
  }

  /**
   * Registers an endpoint (201); {@link WebhookCreated#secret()} is its signing secret, shown
   * this once. Not retried automatically, like token creation: the service keeps no answer
   * that holds a secret.
   *
   * @throws dev.governance.client.exception.ValidationException for a URL that is not https or
   *     resolves to a private address (unless the service allows them)
   */
  public WebhookCreated create(WebhookInput webhook) {
    return createWithResponse(webhook, RequestOptions.DEFAULTS).value();
  }

  public Response<WebhookCreated> createWithResponse(WebhookInput webhook, RequestOptions options) {
    Response<Created> answer =
        http.call(
            ApiCall.post("/webhooks").json(webhook).replay(ApiCall.Replay.NEVER).options(options),
            Created.class);
    return new Response<>(
        answer.status(),
        answer.headers(),
        new WebhookCreated(answer.value().webhook(), answer.value().secret()));
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such webhook */
  public Webhook get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<Webhook> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Webhook.class);
  }

  /**
   * Changes the fields the update sets ({@code PATCH}); the others keep their value. Enabling
   * a disabled webhook clears its failure state.
   */
  public Webhook update(String id, WebhookUpdate update) {
    return updateWithResponse(id, update, RequestOptions.DEFAULTS).value();
  }

  public Response<Webhook> updateWithResponse(String id, WebhookUpdate update, RequestOptions options) {
    return http.call(
        ApiCall.patch(path(id)).mergePatch(update).options(options),
        Webhook.class);
  }

  /** Deletes the webhook; its pending deliveries are dropped. */
  public void delete(String id) {
    deleteWithResponse(id, RequestOptions.DEFAULTS);
  }

  public Response<Void> deleteWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  /**
   * Sends a signed {@code webhook.test} event to the endpoint now and tells what happened (the
   * receiver's body is never shown). Test events are not logged as deliveries.
   */
  public WebhookTestResult test(String id) {
    return testWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<WebhookTestResult> testWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.post(path(id) + "/test").options(options), WebhookTestResult.class);
  }

  /** The webhook's delivery log, paged automatically. */
  public PagedIterable<WebhookDelivery> deliveries(String id) {
    return deliveries(id, RequestOptions.DEFAULTS);
  }

  /** As {@link #deliveries(String)}, each page sent with {@code options}. */
  public PagedIterable<WebhookDelivery> deliveries(String id, RequestOptions options) {
    return PagedIterable.of(http, path(id) + "/deliveries", options, DELIVERIES);
  }

  /** The wire form of a creation's answer: the webhook's fields and its secret, side by side. */
  static final class Created {
    @JsonProperty @JsonUnwrapped private Webhook webhook;
    @JsonProperty private String secret;

    Webhook webhook() {
      return webhook;
    }

    String secret() {
      return secret;
    }
  }

  private static String path(String id) {
    return "/webhooks/" + Ids.segment("webhook id", id);
  }
}
