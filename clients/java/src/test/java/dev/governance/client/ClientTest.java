package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.BadRequestException;
import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.ConnectionException;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.RequestTimeoutException;
import dev.governance.client.exception.ServerException;
import dev.governance.client.exception.UnavailableException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Direction;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.Page;
import dev.governance.client.model.Scope;
import dev.governance.client.model.TokenCreated;
import dev.governance.client.model.TokenInput;
import dev.governance.client.model.Traversal;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The client's behaviour over a scripted transport: no network, no service. */
class ClientTest {
  private static final String ASSET =
      "{\"id\":\"a/b\",\"name\":\"A\",\"type\":\"table\",\"platform\":null,\"description\":null,"
          + "\"owners\":[],\"tags\":[\"pii\"],\"columns\":[{\"name\":\"c\",\"type\":\"int\",\"description\":null,\"tags\":[]}],"
          + "\"properties\":{\"rows\":3,\"ok\":true},\"placeholder\":false,"
          + "\"created_at\":\"2025-01-02T03:04:05.678Z\",\"updated_at\":\"2025-01-02T03:04:05.678Z\","
          + "\"version\":4,\"some_future_field\":1}";

  private final List<Duration> slept = new ArrayList<>();

  private GovernanceClient client(FakeTransport fake, int retries) {
    return FakeTransport.client(fake, retries, slept::add);
  }

  @Test
  void sendsTokenAcceptAndUserAgentAndReadsAsset() {
    FakeTransport fake = new FakeTransport().thenJson(200, ASSET);
    Asset asset = client(fake, 2).assets().get("a/b");
    TransportRequest sent = fake.last();
    assertEquals("GET", sent.method());
    assertEquals("http://localhost:8080/api/v1/assets/a%2Fb", sent.uri().toString());
    assertEquals(Optional.of("Bearer dgs_test"), sent.header("authorization"));
    assertTrue(sent.header("User-Agent").orElseThrow().startsWith("governance-client-java/"));
    assertNull(sent.body());
    assertEquals(4, asset.version());
    assertEquals("\"4\"", asset.etag());
    assertEquals(Instant.parse("2025-01-02T03:04:05.678Z"), asset.createdAt());
    assertEquals(Map.of("rows", 3, "ok", true), asset.properties());
    assertEquals("int", asset.columns().get(0).type());
  }

  @Test
  void retriesGetOn503HonouringRetryAfter() {
    FakeTransport fake =
        new FakeTransport().thenProblem(503, "neo4j_unavailable", "Retry-After", "3").thenJson(200, ASSET);
    client(fake, 2).assets().get("a/b");
    assertEquals(2, fake.requests.size());
    assertEquals(List.of(Duration.ofSeconds(3)), slept);
  }

  @Test
  void backsOffWithFullJitterCappedAtEightSecondsAndGivesUpAfterMaxRetries() {
    FakeTransport fake =
        new FakeTransport().always(r -> FakeTransport.response(500, "oops", "text/plain"));
    double[] draws = {0.0, 0.5, 0.999, 0.999, 0.999, 0.999};
    int[] next = {0};
    GovernanceClient client =
        new GovernanceClient.Builder(name -> null)
            .baseUrl("http://localhost:8080/")
            .transport(fake)
            .maxRetries(6)
            .sleeper(slept::add)
            .jitter(() -> draws[next[0]++])
            .build();
    ServerException error = assertThrows(ServerException.class, () -> client.assets().get("x"));
    assertEquals(500, error.status());
    assertEquals("oops", error.body());
    assertNull(error.problem());
    assertEquals(7, fake.requests.size());
    // A random share of 0.5 s * 2^n, never more than 8 s.
    assertEquals(List.of(0L, 500L, 1998L, 3996L, 7992L, 7992L), slept.stream().map(Duration::toMillis).toList());
  }

  @Test
  void aRetryAfterLongerThanAMinuteIsCappedAtAMinute() {
    FakeTransport fake =
        new FakeTransport().thenProblem(429, "rate_limited", "Retry-After", "120").thenJson(200, ASSET);
    client(fake, 2).assets().get("x");
    assertEquals(2, fake.requests.size());
    assertEquals(List.of(Duration.ofSeconds(60)), slept);
  }

  @Test
  void requestTimeoutAnswersAreRetried() {
    FakeTransport fake = new FakeTransport().thenProblem(408, "request_timeout").thenJson(200, ASSET);
    client(fake, 2).assets().get("x");
    assertEquals(2, fake.requests.size());
  }

  @Test
  void postCarriesOneIdempotencyKeyReusedOnEveryRetry() {
    FakeTransport fake =
        new FakeTransport()
            .thenProblem(503, "neo4j_unavailable", "Retry-After", "0")
            .thenThrow(new ConnectException("reset"))
            .thenJson(201, ASSET);
    client(fake, 2).assets().create(AssetInput.builder("a/b", "A", "table").build());
    assertEquals(3, fake.requests.size());
    String key = fake.requests.get(0).header("Idempotency-Key").orElseThrow();
    assertEquals(36, key.length());
    for (TransportRequest r : fake.requests) {
      assertEquals(Optional.of(key), r.header("Idempotency-Key"));
      assertEquals(Optional.of("application/json"), r.header("Content-Type"));
    }
    assertEquals(
        "{\"id\":\"a/b\",\"name\":\"A\",\"type\":\"table\"}", FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void eachPostGetsItsOwnKey() {
    FakeTransport fake = new FakeTransport().thenJson(201, ASSET).thenJson(201, ASSET);
    GovernanceClient client = client(fake, 1);
    client.assets().create(AssetInput.builder("a", "A", "table").build());
    client.assets().create(AssetInput.builder("b", "B", "table").build());
    assertFalse(
        fake.requests.get(0).header("Idempotency-Key").equals(fake.requests.get(1).header("Idempotency-Key")));
  }

  @Test
  void aConflictIsNeverRetried() {
    FakeTransport fake = new FakeTransport().thenProblem(409, "already_exists");
    ConflictException error =
        assertThrows(
            ConflictException.class,
            () -> client(fake, 3).assets().create(AssetInput.builder("a", "A", "table").build()));
    assertEquals("already_exists", error.code());
    assertEquals(1, fake.requests.size());
  }

  @Test
  void withoutRetriesNoKeyIsAddedAndNothingIsRetried() {
    FakeTransport fake = new FakeTransport().thenProblem(503, "neo4j_unavailable", "Retry-After", "1");
    assertThrows(
        UnavailableException.class,
        () -> client(fake, 0).assets().create(AssetInput.builder("a", "A", "table").build()));
    assertEquals(1, fake.requests.size());
    assertTrue(fake.last().header("Idempotency-Key").isEmpty());
  }

  @Test
  void patchIsAMergePatchAndNotRetriedWithoutAKey() {
    FakeTransport fake = new FakeTransport().thenProblem(503, "neo4j_unavailable", "Retry-After", "0");
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("description", "new");
    patch.put("platform", null);
    assertThrows(UnavailableException.class, () -> client(fake, 3).assets().patch("a b", patch, 7L));
    assertEquals(1, fake.requests.size());
    TransportRequest sent = fake.last();
    assertEquals("PATCH", sent.method());
    assertEquals("/api/v1/assets/a%20b", sent.uri().getRawPath());
    assertEquals(Optional.of("application/merge-patch+json"), sent.header("Content-Type"));
    assertEquals(Optional.of("\"7\""), sent.header("If-Match"));
    assertEquals("{\"description\":\"new\",\"platform\":null}", FakeTransport.bodyOf(sent));
  }

  @Test
  void putReportsWhetherItCreated() {
    FakeTransport fake = new FakeTransport().thenJson(201, ASSET).thenJson(200, ASSET);
    GovernanceClient client = client(fake, 0);
    AssetInput body = AssetInput.builder(null, "A", "table").build();
    assertTrue(client.assets().put("a/b", body).created());
    assertFalse(client.assets().put("a/b", body, 4L).created());
    assertEquals("{\"name\":\"A\",\"type\":\"table\"}", FakeTransport.bodyOf(fake.last()));
    assertEquals(Optional.of("\"4\""), fake.last().header("If-Match"));
    assertTrue(fake.requests.get(0).header("If-Match").isEmpty());
  }

  @Test
  void connectionErrorsAndTimeoutsAreRetriedThenReported() {
    FakeTransport refused = new FakeTransport().always(r -> {
      throw new ConnectException("Connection refused");
    });
    ConnectionException error =
        assertThrows(ConnectionException.class, () -> client(refused, 2).assets().get("x"));
    assertEquals(0, error.status());
    assertEquals("connection_error", error.code());
    assertEquals(3, refused.requests.size());

    FakeTransport slow = new FakeTransport().always(r -> {
      throw new HttpTimeoutException("request timed out");
    });
    RequestTimeoutException timeout =
        assertThrows(RequestTimeoutException.class, () -> client(slow, 1).lineage().graph("x"));
    assertEquals("timeout", timeout.code());
    assertEquals(2, slow.requests.size());
  }

  @Test
  void tokenCreationIsNeverRetriedSoItsSecretIsNeverKeptForReplay() {
    FakeTransport fake = new FakeTransport().thenProblem(503, "neo4j_unavailable", "Retry-After", "0");
    assertThrows(UnavailableException.class, () -> client(fake, 3).tokens().create("ci", Scope.READ));
    assertEquals(1, fake.requests.size());
    assertTrue(fake.last().header("Idempotency-Key").isEmpty());
    assertEquals("{\"name\":\"ci\",\"scopes\":[\"read\"]}", FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void tokenSecretStaysOutOfToString() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(
                201,
                "{\"id\":\"tok_1\",\"name\":\"ci\",\"scopes\":[\"read\"],\"prefix\":\"dgs_abcd\","
                    + "\"created_at\":\"2025-01-01T00:00:00.000Z\",\"token\":\"dgs_abcdSECRETSECRET\"}");
    TokenCreated created = client(fake, 0).tokens().create(TokenInput.of("ci", Scope.READ).withExpiresInDays(30));
    assertEquals("dgs_abcdSECRETSECRET", created.token());
    assertFalse(created.toString().contains("SECRET"));
    assertEquals("{\"name\":\"ci\",\"scopes\":[\"read\"],\"expires_in_days\":30}", FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void validationErrorsListEachField() {
    String body =
        "{\"type\":\"/problems/validation_error\",\"title\":\"Validation failed\",\"status\":422,"
            + "\"detail\":\"Invalid request: body.3.target.\",\"instance\":\"/api/v1/lineage/bulk\","
            + "\"code\":\"validation_error\",\"request_id\":\"r1\","
            + "\"errors\":[{\"loc\":[\"body\",3,\"target\"],\"msg\":\"Field required\",\"type\":\"missing\"}]}";
    FakeTransport fake =
        new FakeTransport().then(r -> FakeTransport.response(422, body, "application/problem+json"));
    ValidationException error =
        assertThrows(
            ValidationException.class,
            () -> client(fake, 2).lineage().bulk(List.of(EdgeInput.of("a", "b"))));
    assertEquals(1, fake.requests.size());
    assertEquals(List.of("body", 3, "target"), error.errors().get(0).loc());
    assertEquals("body.3.target", error.errors().get(0).path());
    assertEquals("missing", error.errors().get(0).type());
    assertTrue(error.getMessage().contains("body.3.target: Field required"), error.getMessage());
    assertTrue(error.getMessage().contains("r1"), error.getMessage());
  }

  @Test
  void requestIdFallsBackToTheHeader() {
    FakeTransport fake =
        new FakeTransport().then(r -> FakeTransport.response(404, "", "text/plain", "X-Request-ID", "hdr-1"));
    NotFoundException error = assertThrows(NotFoundException.class, () -> client(fake, 0).tokens().get("tok_x"));
    assertEquals("hdr-1", error.requestId());
    assertNull(error.code());
  }

  @Test
  void listFollowsNextCursorLazily() {
    String page1 = "{\"items\":[" + ASSET + "," + ASSET + "],\"next_cursor\":\"c1\"}";
    String page2 = "{\"items\":[" + ASSET + "],\"next_cursor\":null}";
    FakeTransport fake = new FakeTransport().thenJson(200, page1).thenJson(200, page2);
    PagedIterable<Asset> all =
        client(fake, 0)
            .assets()
            .list(AssetFilter.builder().tag("pii").tag("gold").type("table").q("a b").build())
            .pageSize(2);
    assertEquals(0, fake.requests.size());
    assertEquals(3, all.stream().count());
    assertEquals(2, fake.requests.size());
    assertEquals("type=table&q=a%20b&limit=2&tag=pii&tag=gold", fake.requests.get(0).uri().getRawQuery());
    assertEquals("type=table&q=a%20b&limit=2&cursor=c1&tag=pii&tag=gold", fake.requests.get(1).uri().getRawQuery());
  }

  @Test
  void pagesExposeCursors() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[],\"next_cursor\":\"c1\"}")
            .thenJson(200, "{\"items\":[],\"next_cursor\":null}");
    List<Page<?>> pages = new ArrayList<>();
    client(fake, 0).lineage().edges().pages().forEach(pages::add);
    assertEquals(2, pages.size());
    assertTrue(pages.get(0).hasNext());
    assertFalse(client(new FakeTransport().thenJson(200, "{\"items\":[],\"next_cursor\":null}"), 0)
        .tokens().list().iterator().hasNext());
  }

  @Test
  void traversalPathsAndParameters() {
    String graph =
        "{\"root\":\"a\",\"direction\":\"upstream\",\"depth\":2,\"nodes\":[{\"id\":\"a\",\"name\":\"a\","
            + "\"type\":\"table\",\"platform\":null,\"tags\":[],\"placeholder\":false,\"distance\":0,"
            + "\"direction\":\"root\"}],\"edges\":[],\"truncated\":false}";
    FakeTransport fake = new FakeTransport().always(r -> FakeTransport.response(200, graph, "application/json"));
    GovernanceClient client = client(fake, 0);
    LineageGraph g = client.lineage().upstream("s3://x/y", Traversal.depth(2).withLimit(10));
    assertEquals(Direction.UPSTREAM, g.direction());
    assertTrue(g.node("a").orElseThrow().isRoot());
    assertEquals("/api/v1/lineage/s3%3A%2F%2Fx%2Fy/upstream", fake.last().uri().getRawPath());
    assertEquals("depth=2&limit=10", fake.last().uri().getRawQuery());
    client.lineage().graph("a", Direction.DOWNSTREAM, Traversal.defaults());
    assertEquals("direction=downstream", fake.last().uri().getRawQuery());
    client.lineage().deleteEdge("a&b", "c=d");
    FakeTransport listing = new FakeTransport().thenJson(200, "{\"items\":[],\"next_cursor\":null}");
    GovernanceException notAGraph =
        assertThrows(GovernanceException.class, () -> client(listing, 0).lineage().graph("edges"));
    assertEquals("invalid_response", notAGraph.code());
    assertEquals("source=a%26b&target=c%3Dd", fake.last().uri().getRawQuery());
  }

  @Test
  void pushBulkSplitsAChunkTheServiceFindsTooLarge() {
    List<Integer> sent = new ArrayList<>();
    FakeTransport fake =
        new FakeTransport()
            .always(
                r -> {
                  int n = Json.MAPPER.readTree(r.body()).size();
                  sent.add(n);
                  if (n > 2) {
                    return FakeTransport.response(
                        413, "{\"status\":413,\"code\":\"payload_too_large\"}", "application/problem+json");
                  }
                  return FakeTransport.response(
                      200,
                      "{\"received\":" + n + ",\"created\":" + n + ",\"existing\":0,\"assets_created\":0}",
                      "application/json");
                });
    List<EdgeInput> edges = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      edges.add(EdgeInput.of("s", "t" + i));
    }
    assertEquals(5, client(fake, 0).lineage().pushBulk(edges, 5).created());
    assertEquals(List.of(5, 2, 3, 1, 2), sent);

    FakeTransport single =
        new FakeTransport().thenProblem(413, "payload_too_large");
    assertThrows(
        BadRequestException.class,
        () -> client(single, 0).lineage().pushBulk(List.of(EdgeInput.of("s", "t")), 5));
  }

  @Test
  void pushBulkRefusesImpossibleChunkSizes() {
    GovernanceClient client = client(new FakeTransport(), 0);
    List<EdgeInput> edges = List.of(EdgeInput.of("a", "b"));
    assertThrows(IllegalArgumentException.class, () -> client.lineage().pushBulk(edges, 0));
    assertThrows(IllegalArgumentException.class, () -> client.lineage().pushBulk(edges, 10_001));
    assertThrows(IllegalArgumentException.class, () -> client.assets().get(""));
  }

  @Test
  void builderFallsBackToTheEnvironment() {
    Map<String, String> env = Map.of("GOVERNANCE_URL", "https://gov.example.com/", "GOVERNANCE_TOKEN", "dgs_env");
    FakeTransport fake = new FakeTransport().thenJson(200, "{\"service\":\"s\",\"version\":\"1\",\"api_version\":\"v1\"}");
    GovernanceClient client = new GovernanceClient.Builder(env::get).transport(fake).build();
    assertEquals("https://gov.example.com/api/v1", client.baseUrl());
    assertEquals("v1", client.info().apiVersion());
    assertEquals("https://gov.example.com/api/v1", fake.last().uri().toString());
    assertEquals(Optional.of("Bearer dgs_env"), fake.last().header("Authorization"));

    IllegalStateException missing =
        assertThrows(IllegalStateException.class, () -> new GovernanceClient.Builder(name -> null).build());
    assertTrue(missing.getMessage().contains("GOVERNANCE_URL"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new GovernanceClient.Builder(name -> null).baseUrl("ftp://x").build());
  }

  @Test
  void unreadableSuccessIsReported() {
    FakeTransport fake = new FakeTransport().thenJson(200, "<html>");
    GovernanceException error = assertThrows(GovernanceException.class, () -> client(fake, 0).assets().get("a"));
    assertEquals("invalid_response", error.code());
    assertNotNull(error.getCause());
  }
}
