package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.WebhookVerificationException;
import dev.governance.client.model.Event;
import dev.governance.client.model.EventFilter;
import dev.governance.client.model.ManifestOptions;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.Page;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Webhook verification edge cases, manifest upload and event paging over a fake transport. */
class WebhooksAndManifestTest {
  private static final String SUMMARY =
      "{\"project\":\"shop\",\"dbt_version\":\"1.8.10\",\"dbt_schema_version\":"
          + "\"https://schemas.getdbt.com/dbt/manifest/v12.json\",\"assets\":{\"created\":8,\"updated\":0},"
          + "\"edges\":{\"created\":7,\"existing\":1,\"removed\":0},"
          + "\"quality_rules\":{\"created\":3,\"updated\":0,\"removed\":0},\"skipped\":2,"
          + "\"warnings\":[\"w\"]}";

  private static final byte[] KEY = new byte[32];
  private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(KEY);
  private static final byte[] BODY =
      ("{\"id\":\"evt_1\",\"seq\":7,\"type\":\"quality.rule.failed\",\"occurred_at\":\"2026-11-21T12:00:00Z\","
              + "\"actor\":\"system\",\"data\":{\"rule\":\"r1\"},\"alert\":true,\"severity\":\"high\"}")
          .getBytes(StandardCharsets.UTF_8);

  private static String sign(String id, long ts, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
    mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
    return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
  }

  private static Map<String, String> headers(String id, long ts, String signature) {
    Map<String, String> h = new HashMap<>();
    h.put("webhook-id", id);
    h.put("webhook-timestamp", String.valueOf(ts));
    h.put("webhook-signature", signature);
    return h;
  }

  @Test
  void verifiesAndParsesAnAlert() throws Exception {
    long ts = 1_800_000_000L;
    Event event =
        Webhooks.verify(
            SECRET, headers("evt_1", ts, sign("evt_1", ts, BODY)), BODY, Duration.ofMinutes(5),
            Instant.ofEpochSecond(ts + 299));
    assertEquals("evt_1", event.id());
    assertEquals(7, event.seq());
    assertTrue(event.isAlert());
    assertEquals("high", event.severity());
    assertEquals("r1", event.data().get("rule"));
    assertEquals(Instant.parse("2026-11-21T12:00:00Z"), event.occurredAt());
    // The secret without its prefix works too.
    Webhooks.verify(
        SECRET.substring("whsec_".length()), headers("evt_1", ts, sign("evt_1", ts, BODY)), BODY,
        Duration.ofMinutes(5), Instant.ofEpochSecond(ts));
  }

  @Test
  void refusesMissingHeadersStaleTimestampsAndOtherVersions() throws Exception {
    long ts = 1_800_000_000L;
    Instant now = Instant.ofEpochSecond(ts);
    String good = sign("evt_1", ts, BODY);
    for (String name : List.of("webhook-id", "webhook-timestamp", "webhook-signature")) {
      Map<String, String> h = headers("evt_1", ts, good);
      h.remove(name);
      WebhookVerificationException e =
          assertThrows(
              WebhookVerificationException.class,
              () -> Webhooks.verify(SECRET, h, BODY, Duration.ofMinutes(5), now));
      assertTrue(e.getMessage().contains(name), e.getMessage());
    }
    assertThrows(
        WebhookVerificationException.class,
        () -> Webhooks.verify(SECRET, headers("evt_1", ts, good), BODY, Duration.ofMinutes(5), now.plusSeconds(301)));
    Map<String, String> notANumber = headers("evt_1", ts, good);
    notANumber.put("webhook-timestamp", "soon");
    assertThrows(
        WebhookVerificationException.class,
        () -> Webhooks.verify(SECRET, notANumber, BODY, Duration.ofMinutes(5), now));
    String v2 = "v2," + good.substring(3);
    assertThrows(
        WebhookVerificationException.class,
        () -> Webhooks.verify(SECRET, headers("evt_1", ts, v2 + " garbage v1,!!!"), BODY, Duration.ofMinutes(5), now));
    // The default overload uses the clock: a timestamp from 2027 is far from now.
    assertThrows(
        WebhookVerificationException.class,
        () -> Webhooks.verify(SECRET, headers("evt_1", ts, good), BODY));
    long fresh = Instant.now().getEpochSecond();
    assertEquals("evt_1", Webhooks.verify(SECRET, headers("evt_1", fresh, sign("evt_1", fresh, BODY)), BODY).id());
  }

  @Test
  void aSignedBodyThatIsNotAnEnvelopeIsRefused() throws Exception {
    long ts = 1_800_000_000L;
    byte[] body = "[1,2]".getBytes(StandardCharsets.UTF_8);
    assertThrows(
        WebhookVerificationException.class,
        () -> Webhooks.verify(SECRET, headers("x", ts, sign("x", ts, body)), body, Duration.ofMinutes(5), Instant.ofEpochSecond(ts)));
  }

  @Test
  void uploadManifestGzipsAndSendsTheRightRequest(@TempDir Path dir) throws Exception {
    FakeTransport fake = new FakeTransport().thenJson(200, SUMMARY);
    byte[] manifest = "{\"metadata\":{}}".getBytes(StandardCharsets.UTF_8);
    Path file = dir.resolve("manifest.json");
    Files.write(file, manifest);
    ManifestSummary summary = VectorsTest.client(fake).lineage().uploadManifest(file, ManifestOptions.project("my shop").withPrune(false));

    TransportRequest request = fake.last();
    assertEquals("POST", request.method());
    assertEquals("/api/v1/lineage/manifest", request.uri().getRawPath());
    assertEquals("project=my%20shop&prune=false", request.uri().getRawQuery());
    assertEquals("application/json", request.header("Content-Type").orElseThrow());
    assertEquals("gzip", request.header("Content-Encoding").orElseThrow());
    assertTrue(request.header("Idempotency-Key").isPresent());
    assertTrue(request.timeout().compareTo(Duration.ofMinutes(5)) >= 0);
    assertArrayEquals(manifest, gunzip(request.body()));

    assertEquals("shop", summary.project());
    assertEquals("1.8.10", summary.dbtVersion());
    assertEquals(8, summary.assets().created());
    assertEquals(7, summary.edges().created());
    assertEquals(1, summary.edges().existing());
    assertEquals(3, summary.qualityRules().created());
    assertEquals(2, summary.skipped());
    assertEquals(List.of("w"), summary.warnings());
  }

  @Test
  void uploadManifestSendsGzipAsIsAndRetriesWithTheSameKey() throws Exception {
    FakeTransport fake =
        new FakeTransport()
            .thenThrow(new SocketTimeoutException("slow"))
            .thenJson(200, SUMMARY);
    byte[] zipped = gzip("{}".getBytes(StandardCharsets.UTF_8));
    VectorsTest.client(fake).lineage().uploadManifest(zipped);
    assertEquals(2, fake.requests.size());
    assertArrayEquals(zipped, fake.requests.get(0).body());
    assertEquals(
        fake.requests.get(0).header("Idempotency-Key"), fake.requests.get(1).header("Idempotency-Key"));
    assertEquals("prune=true", fake.last().uri().getRawQuery());
    assertThrows(IllegalArgumentException.class, () -> VectorsTest.client(fake).lineage().uploadManifest(new byte[0]));
  }

  @Test
  void eventsListAndIterateFollowCursors() {
    String e1 = "{\"id\":\"e1\",\"seq\":11,\"type\":\"asset.created\",\"occurred_at\":\"2026-01-01T00:00:00Z\",\"actor\":\"a\",\"data\":{}}";
    String e2 = "{\"id\":\"e2\",\"seq\":12,\"type\":\"asset.deleted\",\"occurred_at\":\"2026-01-01T00:00:01Z\",\"actor\":\"a\",\"data\":null}";
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[" + e1 + "],\"next_cursor\":\"c1\"}")
            .thenJson(200, "{\"items\":[" + e2 + "],\"next_cursor\":null}")
            .thenJson(200, "{\"items\":[],\"next_cursor\":null}");
    GovernanceClient client = VectorsTest.client(fake);
    List<Event> events = client.events().list(EventFilter.after(10).withTypes("asset.created", "asset.*")).stream().toList();
    assertEquals(List.of("e1", "e2"), events.stream().map(Event::id).toList());
    assertFalse(events.get(0).isAlert());
    assertNull(events.get(0).severity());
    assertEquals("after=10&types=asset.created%2Casset.%2A", fake.requests.get(0).uri().getRawQuery().replace("*", "%2A"));
    assertEquals("types=asset.created%2Casset.%2A&cursor=c1", fake.requests.get(1).uri().getRawQuery().replace("*", "%2A"));

    Page<Event> page = client.events().list().pageSize(5).firstPage();
    assertTrue(page.items().isEmpty());
    assertEquals("limit=5", fake.last().uri().getRawQuery());
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] gunzip(byte[] bytes) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return in.readAllBytes();
    }
  }
}
