package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.governance.client.exception.BadRequestException;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.ColumnGraph;
import dev.governance.client.model.ColumnMapping;
import dev.governance.client.model.Counts;
import dev.governance.client.model.Direction;
import dev.governance.client.model.Edge;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.Me;
import dev.governance.client.model.OpenLineageResult;
import dev.governance.client.model.Role;
import dev.governance.client.model.Traversal;
import dev.governance.client.model.User;
import dev.governance.client.model.UserInput;
import dev.governance.client.model.Webhook;
import dev.governance.client.model.WebhookCreated;
import dev.governance.client.model.WebhookDelivery;
import dev.governance.client.model.WebhookInput;
import dev.governance.client.model.WebhookTestResult;
import dev.governance.client.model.WebhookUpdate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Webhooks, users, /me, column lineage and OpenLineage over a scripted transport. */
class WebhooksUsersLineageTest {
  private static final String HOOK =
      "{\"id\":\"wh_1\",\"url\":\"https://example.com/h\",\"types\":[\"asset.*\"],\"enabled\":true,"
          + "\"description\":null,\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\","
          + "\"failing_since\":null,\"disabled_reason\":null,\"last_delivery_at\":null";
  private static final String USER =
      "{\"id\":\"usr_1\",\"username\":\"ana\",\"display_name\":\"Ana\",\"role\":\"editor\",\"disabled\":false,"
          + "\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\",\"last_sign_in_at\":null}";

  private static GovernanceClient client(FakeTransport fake) {
    return VectorsTest.client(fake);
  }

  @Test
  void webhookLifecycleRequests() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(201, HOOK + ",\"secret\":\"whsec_SECRETSECRET\"}")
            .thenJson(200, HOOK + "}")
            .thenJson(200, HOOK + "}")
            .thenJson(200, "{\"delivered\":false,\"status\":500,\"error\":\"HTTP 500\",\"duration_ms\":12.5}")
            .thenJson(200, "{\"items\":[{\"id\":\"dl_1\",\"event_id\":\"evt_1\",\"event_type\":\"asset.created\","
                + "\"state\":\"failed\",\"attempts\":3,\"last_status\":500,\"last_error\":\"HTTP 500\","
                + "\"created_at\":\"2026-01-01T00:00:00Z\"}],\"next_cursor\":null}")
            .then(r -> FakeTransport.response(204, "", "text/plain"));
    WebhooksService hooks = client(fake).webhooks();

    WebhookCreated created =
        hooks.create(WebhookInput.of("https://example.com/h", "asset.*").withDescription("ci"));
    assertEquals("whsec_SECRETSECRET", created.secret());
    assertFalse(created.toString().contains("SECRET"));
    assertEquals("wh_1", created.id());
    assertEquals(List.of("asset.*"), created.webhook().types());
    assertEquals("/api/v1/webhooks", fake.last().uri().getRawPath());
    assertEquals(
        "{\"url\":\"https://example.com/h\",\"types\":[\"asset.*\"],\"description\":\"ci\"}",
        FakeTransport.bodyOf(fake.last()));

    Webhook read = hooks.get("wh/1");
    assertEquals(List.of("asset.*"), read.types());
    assertEquals("/api/v1/webhooks/wh%2F1", fake.last().uri().getRawPath());

    hooks.update("wh_1", WebhookUpdate.create().enabled(false).types("quality.*", "policy.*"));
    assertEquals("PATCH", fake.last().method());
    assertEquals(Optional.of("application/merge-patch+json"), fake.last().header("Content-Type"));
    assertEquals("{\"types\":[\"quality.*\",\"policy.*\"],\"enabled\":false}", FakeTransport.bodyOf(fake.last()));

    WebhookTestResult test = hooks.test("wh_1");
    assertFalse(test.delivered());
    assertEquals(500, test.status());
    assertEquals("/api/v1/webhooks/wh_1/test", fake.last().uri().getRawPath());
    assertTrue(fake.last().header("Idempotency-Key").isPresent(), "a test delivery may be retried with a key");

    List<WebhookDelivery> log = hooks.deliveries("wh_1").pageSize(50).stream().toList();
    assertEquals("failed", log.get(0).state());
    assertEquals(3, log.get(0).attempts());
    assertEquals("limit=50", fake.last().uri().getRawQuery());

    hooks.delete("wh_1");
    assertEquals("DELETE", fake.last().method());
  }

  @Test
  void usersAndMe() throws IOException {
    String token =
        "{\"id\":\"tok_1\",\"name\":\"t\",\"scopes\":[\"write\"],\"prefix\":\"dgs_abcd\","
            + "\"created_at\":\"2026-01-01T00:00:00Z\",\"user_id\":\"usr_1\"}";
    FakeTransport fake =
        new FakeTransport()
            .thenJson(201, USER)
            .thenJson(200, USER)
            .thenJson(200, "{\"token\":" + token + ",\"user\":" + USER + "}")
            .thenJson(200, "{\"token\":" + token.replace("\"usr_1\"", "null") + ",\"user\":null}");
    GovernanceClient client = client(fake);

    User made = client.users().create(UserInput.of("ana", "correct horse battery", Role.EDITOR).withDisplayName("Ana"));
    assertEquals("editor", made.role());
    JsonNode body = FakeTransport.jsonOf(fake.last());
    assertEquals("editor", body.get("role").asText());
    assertEquals("Ana", body.get("display_name").asText());
    assertFalse(UserInput.of("ana", "correct horse battery", Role.ADMIN).toString().contains("horse"));

    Map<String, Object> patch = new HashMap<>();
    patch.put("display_name", null);
    patch.put("role", Role.VIEWER);
    client.users().patch("usr_1", patch);
    assertEquals(Optional.of("application/merge-patch+json"), fake.last().header("Content-Type"));
    assertTrue(FakeTransport.jsonOf(fake.last()).get("display_name").isNull());
    assertEquals("viewer", FakeTransport.jsonOf(fake.last()).get("role").asText());

    Me me = client.me();
    assertEquals("usr_1", me.token().userId());
    assertEquals("ana", me.user().username());
    assertEquals("/api/v1/me", fake.last().uri().getRawPath());
    Me cli = client.me();
    assertNull(cli.user());
    assertNull(cli.token().userId());
  }

  @Test
  void columnLineagePathsEncodeBothSegments() {
    String graph =
        "{\"root\":{\"asset\":\"s3://b/t\",\"column\":\"a/b\"},\"direction\":\"downstream\",\"depth\":5,"
            + "\"nodes\":[{\"asset\":\"s3://b/t\",\"column\":\"a/b\",\"distance\":0},"
            + "{\"asset\":\"m.x\",\"column\":\"c\",\"distance\":1}],"
            + "\"edges\":[{\"source\":{\"asset\":\"s3://b/t\",\"column\":\"a/b\"},"
            + "\"target\":{\"asset\":\"m.x\",\"column\":\"c\"},\"transformation\":\"upper\"}],\"truncated\":false}";
    FakeTransport fake = new FakeTransport().always(r -> FakeTransport.response(200, graph, "application/json"));
    LineageService lineage = client(fake).lineage();
    ColumnGraph down = lineage.columnDownstream("s3://b/t", "a/b", Traversal.depth(3).withLimit(100));
    assertEquals("/api/v1/lineage/s3%3A%2F%2Fb%2Ft/columns/a%2Fb/downstream", fake.last().uri().getRawPath());
    assertEquals("depth=3&limit=100", fake.last().uri().getRawQuery());
    assertEquals(Direction.DOWNSTREAM, down.direction());
    assertEquals(1, down.node("m.x", "c").orElseThrow().distance());
    assertEquals("upper", down.edges().get(0).transformation());
    lineage.columnUpstream("m.x", "c");
    assertEquals("/api/v1/lineage/m.x/columns/c/upstream", fake.last().uri().getRawPath());
    assertNull(fake.last().uri().getRawQuery());
    assertThrows(IllegalArgumentException.class, () -> lineage.columnUpstream("m.x", ""));
  }

  @Test
  void edgesCarryColumnMappings() throws IOException {
    String edge =
        "{\"source\":\"a\",\"target\":\"b\",\"transformation\":null,\"origins\":[\"api\"],"
            + "\"columns\":[{\"source\":\"id\",\"target\":\"id\",\"transformation\":null,\"origins\":[\"api\"]}],"
            + "\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\"}";
    FakeTransport fake =
        new FakeTransport()
            .thenJson(201, edge)
            .thenJson(200, "{\"received\":1,\"created\":0,\"existing\":1,\"assets_created\":0,"
                + "\"column_mappings\":{\"created\":2,\"existing\":1}}");
    EdgeInput input =
        EdgeInput.of("a", "b").withColumns(ColumnMapping.of("id", "id"), ColumnMapping.of("n", "name", "upper(n)"));
    Response<Edge> saved = client(fake).lineage().createWithResponse(input, true, null);
    assertTrue(saved.created());
    assertEquals("strict=true", fake.last().uri().getRawQuery());
    assertEquals(
        "{\"source\":\"a\",\"target\":\"b\",\"columns\":[{\"source\":\"id\",\"target\":\"id\"},"
            + "{\"source\":\"n\",\"target\":\"name\",\"transformation\":\"upper(n)\"}]}",
        FakeTransport.bodyOf(fake.last()));
    assertEquals(List.of("api"), saved.value().columns().get(0).origins());

    BulkResult bulk = client(fake).lineage().bulk(List.of(input));
    assertEquals(new Counts(2, 1), bulk.columnMappings());
    assertEquals(new Counts(4, 2), bulk.plus(bulk).columnMappings());
    assertEquals(new Counts(2, 1), BulkResult.EMPTY.plus(bulk).columnMappings());
    assertNull(new BulkResult(1, 1, 0, 0).plus(BulkResult.EMPTY).columnMappings());
  }

  @Test
  void openLineageSendsOneEventOrChunksAnArrayAndSums() throws IOException {
    List<Integer> sent = new ArrayList<>();
    FakeTransport fake =
        new FakeTransport()
            .always(
                r -> {
                  JsonNode body = Json.MAPPER.readTree(r.body());
                  int n = body.isArray() ? body.size() : 1;
                  sent.add(body.isArray() ? n : -1);
                  return FakeTransport.response(
                      200,
                      "{\"received\":" + n + ",\"complete\":" + n + ",\"runs\":1,\"edges\":{\"created\":" + n
                          + ",\"existing\":0},\"column_mappings\":{\"created\":0,\"existing\":0},"
                          + "\"assets\":{\"created\":1,\"updated\":0},\"warnings\":[\"w" + n + "\"]}",
                      "application/json");
                });
    LineageService lineage = client(fake).lineage();
    Map<String, Object> event = Map.of("eventType", "COMPLETE", "run", Map.of("runId", "r"));
    OpenLineageResult one = lineage.openLineage(event);
    assertEquals(1, one.received());
    assertEquals("/api/v1/lineage/openlineage", fake.last().uri().getRawPath());
    assertTrue(
        fake.last().header("Idempotency-Key").isEmpty(),
        "ingestion merges, so it is retried without an automatic key");

    List<Map<String, Object>> events = IntStream.range(0, 25_000).mapToObj(i -> event).toList();
    OpenLineageResult total = lineage.pushOpenLineage(events);
    assertEquals(List.of(-1, 10_000, 10_000, 5_000), sent);
    assertEquals(25_000, total.received());
    assertEquals(25_000, total.edges().created());
    assertEquals(3, total.assets().created());
    assertEquals(List.of("w10000", "w10000", "w5000"), total.warnings());

    sent.clear();
    assertEquals(OpenLineageResult.EMPTY, lineage.pushOpenLineage(List.of()));
    assertTrue(sent.isEmpty());
    assertThrows(IllegalArgumentException.class, () -> lineage.pushOpenLineage(events, 10_001, null));
    assertThrows(IllegalArgumentException.class, () -> lineage.openLineage(null));
  }

  @Test
  void aChunkOfOneThatIsStillTooLargeIsReported() {
    FakeTransport fake = new FakeTransport().thenProblem(413, "payload_too_large");
    assertThrows(
        BadRequestException.class,
        () -> client(fake).lineage().pushOpenLineage(List.of(Map.of("eventType", "COMPLETE")), 5, null));
  }
}
