package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.UnavailableException;
import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Query;
import dev.governance.client.model.WebhookInput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Per-request options, raw responses, the defaults and which POSTs are retried. */
class OptionsAndResponsesTest {
  private static final String ASSET =
      "{\"id\":\"a\",\"name\":\"A\",\"type\":\"table\",\"placeholder\":false,"
          + "\"created_at\":\"2025-01-02T03:04:05Z\",\"updated_at\":\"2025-01-02T03:04:05Z\",\"version\":3}";

  private final List<Duration> slept = new ArrayList<>();

  private GovernanceClient client(FakeTransport fake, int retries) {
    return FakeTransport.client(fake, retries, slept::add);
  }

  @Test
  void defaultsAreSixtySecondsPerAttemptTwoRetriesAndTenMinutesForUploads() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, ASSET)
            .thenJson(200, "{\"project\":\"p\"}")
            .thenJson(200, "{\"received\":0,\"recorded\":0}");
    GovernanceClient client =
        new GovernanceClient.Builder(name -> null).baseUrl("http://h").transport(fake).build();
    client.assets().get("a");
    client.lineage().uploadManifest(new byte[] {'{', '}'});
    client.quality().uploadRunResults(new byte[] {'{', '}'});
    assertEquals(Duration.ofSeconds(60), fake.requests.get(0).timeout());
    assertEquals(Duration.ofMinutes(10), fake.requests.get(1).timeout());
    assertEquals(Duration.ofMinutes(10), fake.requests.get(2).timeout());
    assertEquals(2, GovernanceClient.DEFAULT_MAX_RETRIES);
  }

  @Test
  void optionsSetTimeoutKeyRequestIdHeadersAndRetries() {
    FakeTransport fake =
        new FakeTransport()
            .thenProblem(503, "neo4j_unavailable", "Retry-After", "0")
            .thenJson(201, ASSET, "ETag", "\"3\"", "X-Request-ID", "sync-42");
    RequestOptions options =
        RequestOptions.builder()
            .timeout(Duration.ofSeconds(5))
            .idempotencyKey("job-7")
            .requestId("sync-42")
            .header("X-Team", "data-eng")
            .header("Accept", "application/json")
            .maxRetries(1)
            .build();
    Response<Asset> created =
        client(fake, 0).assets().createWithResponse(AssetInput.builder("a", "A", "table").build(), options);
    assertEquals(2, fake.requests.size(), "the options' retries replace the client's");
    for (TransportRequest sent : fake.requests) {
      assertEquals(Duration.ofSeconds(5), sent.timeout());
      assertEquals(Optional.of("job-7"), sent.header("Idempotency-Key"));
      assertEquals(Optional.of("sync-42"), sent.header("X-Request-ID"));
      assertEquals(Optional.of("data-eng"), sent.header("X-Team"));
      assertEquals(Optional.of("application/json"), sent.header("Accept"));
      assertEquals(1, sent.headers().keySet().stream().filter("accept"::equalsIgnoreCase).count());
    }
    assertTrue(created.created());
    assertEquals(201, created.status());
    assertEquals(Optional.of("\"3\""), created.etag());
    assertEquals(Optional.of("sync-42"), created.requestId());
    assertEquals(3, created.value().version());
  }

  @Test
  void aListingSendsTheOptionsWithEveryPage() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[],\"next_cursor\":\"c\"}")
            .thenJson(200, "{\"items\":[],\"next_cursor\":null}");
    client(fake, 0).users().list(RequestOptions.builder().requestId("r1").build()).pageSize(10).stream().count();
    assertEquals(2, fake.requests.size());
    fake.requests.forEach(r -> assertEquals(Optional.of("r1"), r.header("X-Request-ID")));
    assertEquals("limit=10&cursor=c", fake.last().uri().getRawQuery());
  }

  @Test
  void rateLimitHeadersAreReadable() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, ASSET, "RateLimit-Limit", "100", "RateLimit-Remaining", "97", "RateLimit-Reset", "2")
            .thenJson(200, ASSET, "RateLimit-Limit", "x", "RateLimit-Remaining", "1", "RateLimit-Reset", "1");
    GovernanceClient client = client(fake, 0);
    Response<Asset> r = client.assets().getWithResponse("a", null);
    assertEquals(Optional.of(new Response.RateLimit(100, 97, 2)), r.rateLimit());
    assertFalse(r.created());
    assertTrue(client.assets().getWithResponse("a", null).rateLimit().isEmpty());
  }

  @Test
  void queryPostsAreReadsRetriedWithoutAKey() {
    FakeTransport fake =
        new FakeTransport()
            .thenProblem(503, "neo4j_unavailable", "Retry-After", "0")
            .thenJson(200, "{\"nodes\":[],\"next_cursor\":null}")
            .thenProblem(502, "bad_gateway")
            .thenJson(200, "{\"columns\":[],\"rows\":[],\"truncated\":false}");
    GovernanceClient client = client(fake, 2);
    client.query().run(Query.startAt("a"));
    client.query().cypher("RETURN 1");
    assertEquals(4, fake.requests.size());
    fake.requests.forEach(r -> assertTrue(r.header("Idempotency-Key").isEmpty()));
  }

  @Test
  void secretsAreNeverCreatedTwiceEvenWithAKey() {
    FakeTransport fake =
        new FakeTransport()
            .thenProblem(503, "neo4j_unavailable", "Retry-After", "0")
            .thenProblem(503, "neo4j_unavailable", "Retry-After", "0");
    GovernanceClient client = client(fake, 3);
    assertThrows(
        UnavailableException.class,
        () -> client.webhooks().create(WebhookInput.of("https://example.com/hook")));
    assertThrows(
        UnavailableException.class,
        () -> client.webhooks().createWithResponse(
            WebhookInput.of("https://example.com/hook"), RequestOptions.idempotencyKey("k")));
    assertEquals(2, fake.requests.size());
    assertTrue(fake.requests.get(0).header("Idempotency-Key").isEmpty());
    assertEquals("{\"url\":\"https://example.com/hook\"}", FakeTransport.bodyOf(fake.requests.get(0)));
  }

  @Test
  void healthReadinessAndMetricsLiveAtTheServerRoot() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"status\":\"ok\"}")
            .thenProblem(503, "schema_not_applied", "Retry-After", "2")
            .then(r -> FakeTransport.response(200, "# HELP x\nx 1\n", "text/plain; version=0.0.4"))
            .thenJson(200, "{\"service\":\"s\",\"version\":\"1\",\"api_version\":\"v1\"}");
    GovernanceClient client =
        new GovernanceClient.Builder(name -> null)
            .baseUrl("http://localhost:8080/prefix/api/v1")
            .transport(fake)
            .sleeper(slept::add)
            .build();
    assertEquals("ok", client.health().status());
    assertEquals("http://localhost:8080/prefix/healthz", fake.last().uri().toString());
    UnavailableException notReady =
        assertThrows(
            UnavailableException.class,
            () -> client.readyWithResponse(RequestOptions.builder().maxRetries(0).build()));
    assertEquals("schema_not_applied", notReady.code());
    assertEquals("http://localhost:8080/prefix/readyz", fake.last().uri().toString());
    assertEquals("# HELP x\nx 1\n", client.metrics());
    assertEquals("/prefix/metrics", fake.last().uri().getRawPath());
    assertEquals("v1", client.info().apiVersion());
    assertEquals("http://localhost:8080/prefix/api/v1", fake.last().uri().toString());
    assertTrue(slept.isEmpty());
  }

  @Test
  void optionsAreImmutableAndValidated() {
    RequestOptions base = RequestOptions.builder().header("X-A", "1").build();
    RequestOptions more = base.toBuilder().header("X-B", "2").header("X-A", null).build();
    assertEquals(List.of("X-A"), List.copyOf(base.headers().keySet()));
    assertEquals(List.of("X-B"), List.copyOf(more.headers().keySet()));
    assertNull(RequestOptions.DEFAULTS.timeout());
    assertThrows(IllegalArgumentException.class, () -> RequestOptions.timeout(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> RequestOptions.builder().maxRetries(-1));
    assertThrows(UnsupportedOperationException.class, () -> base.headers().put("X", "y"));
  }
}
