package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpServer;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.exception.WebhookVerificationException;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Event;
import dev.governance.client.model.Webhook;
import dev.governance.client.model.WebhookCreated;
import dev.governance.client.model.WebhookDelivery;
import dev.governance.client.model.WebhookInput;
import dev.governance.client.model.WebhookTestResult;
import dev.governance.client.model.WebhookUpdate;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhooks against a running service that may deliver to loopback (the harness sets
 * GOVERNANCE_WEBHOOK_ALLOW_PRIVATE): a receiver on 127.0.0.1, port 0, gets signed deliveries
 * that {@link Webhooks#verify} accepts.
 */
class WebhooksIT {
  private static final Duration DELIVERY_WAIT = Duration.ofSeconds(30);

  /** One request the receiver got: its path, headers (first values, any case) and raw body. */
  private record Received(String path, Map<String, String> headers, byte[] body) {}

  private static GovernanceClient client;
  private static HttpServer receiver;
  private static final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

  @BeforeAll
  static void start() throws IOException {
    client = Live.client();
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/hook",
        exchange -> {
          Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
          exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
          String path = exchange.getRequestURI().getPath();
          received.add(new Received(path, headers, exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
  }

  @AfterAll
  static void stop() {
    if (receiver != null) {
      receiver.stop(0);
    }
  }

  /** A receiver URL of its own for each webhook, so that tests never see each other's deliveries. */
  private static String hookUrl(String name) {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook/" + name;
  }

  /** The next delivery to {@code url}; deliveries to other URLs are dropped. */
  private static Received next(String url) throws InterruptedException {
    long deadline = System.nanoTime() + DELIVERY_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      Received delivery = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (delivery != null && url.endsWith(delivery.path())) {
        return delivery;
      }
    }
    return fail("no delivery to " + url + " within " + DELIVERY_WAIT.toSeconds() + " s");
  }

  /** The next delivery to the hook whose verified event passes {@code wanted}. */
  private static Event nextVerified(WebhookCreated hook, Predicate<Event> wanted)
      throws InterruptedException {
    while (true) {
      Received delivery = next(hook.webhook().url());
      Event event = Webhooks.verify(hook.secret(), delivery.headers(), delivery.body());
      assertEquals(delivery.headers().get("webhook-id"), event.id(), "webhook-id is the event id");
      if (wanted.test(event)) {
        return event;
      }
    }
  }

  @Test
  void aSignedDeliveryReachesALoopbackReceiverAndVerifies() throws Exception {
    String asset = Live.unique("hooked");
    WebhookCreated hook =
        client.webhooks()
            .create(WebhookInput.of(hookUrl(Live.unique("a")), "asset.created").withDescription("java live"));
    try {
      assertTrue(hook.secret().startsWith("whsec_"));
      assertTrue(hook.webhook().enabled());
      assertEquals(List.of("asset.created"), hook.webhook().types());
      assertEquals(hook.webhook(), client.webhooks().get(hook.id()));
      assertTrue(client.webhooks().list().pageSize(100).stream().anyMatch(w -> w.id().equals(hook.id())));

      WebhookTestResult test = client.webhooks().test(hook.id());
      assertTrue(test.delivered(), "test delivery failed: " + test.error());
      assertEquals(204, test.status());
      Event ping = nextVerified(hook, e -> e.type().equals("webhook.test"));
      assertEquals(0, ping.seq());

      client.assets().create(AssetInput.builder(asset, "hooked", "table").build());
      Event created =
          nextVerified(
              hook, e -> e.type().equals("asset.created") && asset.equals(e.data().get("id")));
      assertTrue(created.seq() > 0);

      WebhookDelivery logged =
          Live.eventually(
              Duration.ofSeconds(10),
              "the delivery of " + created.id() + " logged as delivered",
              () -> client.webhooks().deliveries(hook.id()).stream()
                  .filter(d -> d.eventId().equals(created.id()) && d.state().equals("delivered"))
                  .findFirst());
      assertEquals("asset.created", logged.eventType());
      assertEquals(204, logged.lastStatus());
      assertNotNull(logged.deliveredAt());
    } finally {
      client.webhooks().delete(hook.id());
      Live.cleanUp(client, asset);
    }
    assertThrows(NotFoundException.class, () -> client.webhooks().get(hook.id()));
  }

  @Test
  void aTamperedOrWronglyKeyedDeliveryIsRefused() throws Exception {
    WebhookCreated hook = client.webhooks().create(WebhookInput.of(hookUrl(Live.unique("t")), "policy.created"));
    WebhookCreated other = client.webhooks().create(WebhookInput.of(hookUrl(Live.unique("o")), "policy.created"));
    try {
      client.webhooks().test(hook.id());
      Received delivery = next(hook.webhook().url());
      assertEquals("webhook.test", Webhooks.verify(hook.secret(), delivery.headers(), delivery.body()).type());
      byte[] tampered = Arrays.copyOf(delivery.body(), delivery.body().length);
      tampered[tampered.length - 2] ^= 1;
      assertThrows(
          WebhookVerificationException.class,
          () -> Webhooks.verify(hook.secret(), delivery.headers(), tampered));
      assertThrows(
          WebhookVerificationException.class,
          () -> Webhooks.verify(other.secret(), delivery.headers(), delivery.body()));
    } finally {
      client.webhooks().delete(hook.id());
      client.webhooks().delete(other.id());
    }
  }

  @Test
  void updateChangesOnlyWhatItSets() {
    String url = hookUrl(Live.unique("u"));
    WebhookCreated hook =
        client.webhooks().create(WebhookInput.of(url).withDescription("before").withEnabled(false));
    try {
      assertEquals(List.of("*"), hook.webhook().types());
      assertFalse(hook.webhook().enabled());
      Webhook updated =
          client.webhooks().update(hook.id(), WebhookUpdate.create().enabled(true).types("quality.*", "policy.*"));
      assertTrue(updated.enabled());
      assertEquals(List.of("quality.*", "policy.*"), updated.types());
      assertEquals("before", updated.description());
      assertEquals(url, updated.url());
      assertEquals(200, client.webhooks().updateWithResponse(hook.id(), WebhookUpdate.create(), null).status());

      ValidationException bad =
          assertThrows(
              ValidationException.class,
              () -> client.webhooks().update(hook.id(), WebhookUpdate.create().url("ftp://example.com/x")));
      assertEquals(422, bad.status());
    } finally {
      client.webhooks().delete(hook.id());
    }
  }
}
