package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.model.AssetInput;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.EventFilter;
import dev.governance.client.model.Page;
import dev.governance.client.model.Token;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shapes the four clients agree on: which POSTs carry an automatic Idempotency-Key, one
 * paging shape, If-Match as an option, and a stream that says when it is subscribed.
 */
class ApiShapeTest {
  private static final String BULK =
      "{\"received\":1,\"created\":1,\"existing\":0,\"column_mappings\":{\"created\":0,\"existing\":0}}";
  private static final String OPENLINEAGE =
      "{\"received\":1,\"complete\":1,\"runs\":1,\"edges\":{\"created\":1,\"existing\":0},"
          + "\"column_mappings\":{\"created\":0,\"existing\":0},\"assets\":{\"created\":0,\"updated\":0},"
          + "\"warnings\":[]}";

  private final List<Duration> slept = new ArrayList<>();

  private GovernanceClient client(FakeTransport fake, int retries) {
    return FakeTransport.client(fake, retries, slept::add);
  }

  @Test
  void bulkLineageIsRetriedWithoutAnAutomaticIdempotencyKey() {
    FakeTransport fake = new FakeTransport().thenProblem(503, "neo4j_unavailable").thenJson(200, BULK);
    client(fake, 2).lineage().bulk(List.of(EdgeInput.of("a", "b")));
    assertEquals(2, fake.requests.size(), "a merge is safe to repeat: retried after the 503");
    for (TransportRequest sent : fake.requests) {
      assertTrue(sent.header("Idempotency-Key").isEmpty(), "no claim round trip on the service");
    }
  }

  @Test
  void openLineageIsRetriedWithoutAnAutomaticIdempotencyKey() {
    FakeTransport fake = new FakeTransport().thenProblem(502, "bad_gateway").thenJson(200, OPENLINEAGE);
    client(fake, 2).lineage().openLineage(Map.of("eventType", "COMPLETE"));
    assertEquals(2, fake.requests.size());
    assertTrue(fake.requests.stream().allMatch(r -> r.header("Idempotency-Key").isEmpty()));
  }

  @Test
  void aKeyTheCallerGivesIsStillSentWithABulkWrite() {
    FakeTransport fake = new FakeTransport().thenJson(200, BULK);
    client(fake, 2)
        .lineage()
        .bulkWithResponse(List.of(EdgeInput.of("a", "b")), false, RequestOptions.idempotencyKey("job-7"));
    assertEquals("job-7", fake.last().header("Idempotency-Key").orElseThrow());
  }

  @Test
  void otherCreatesKeepTheirAutomaticKeyTheSameOnEveryAttempt() {
    FakeTransport fake =
        new FakeTransport()
            .thenProblem(503, "neo4j_unavailable")
            .thenJson(201, "{\"id\":\"a\",\"name\":\"a\",\"type\":\"table\",\"version\":1}");
    client(fake, 2).assets().create(AssetInput.builder("a", "a", "table").build());
    String first = fake.requests.get(0).header("Idempotency-Key").orElseThrow();
    assertEquals(first, fake.requests.get(1).header("Idempotency-Key").orElseThrow());
  }

  @Test
  void aVersionGoesOutAsIfMatchFromTheShortFormOrTheOptions() {
    String asset = "{\"id\":\"a\",\"name\":\"a\",\"type\":\"table\",\"version\":4}";
    FakeTransport fake = new FakeTransport().thenJson(200, asset).thenJson(200, asset).thenJson(200, asset);
    GovernanceClient client = client(fake, 0);
    client.assets().put("a", AssetInput.builder(null, "a", "table").build(), 3);
    assertEquals("\"3\"", fake.last().header("If-Match").orElseThrow());
    client.assets().patchWithResponse("a", Map.of("name", "b"), RequestOptions.builder().ifMatch(4).build());
    assertEquals("\"4\"", fake.last().header("If-Match").orElseThrow());
    client.assets().patch("a", Map.of("name", "c"));
    assertTrue(fake.last().header("If-Match").isEmpty(), "no version, no condition");
  }

  @Test
  void everyListingPagesTheSameWayWithPageSizeAndASavedCursor() {
    String token = "{\"id\":\"tok_%s\",\"name\":\"t\",\"scopes\":[\"read\"],\"prefix\":\"dgs_x\","
        + "\"created_at\":\"2025-01-01T00:00:00Z\"}";
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[" + token.formatted("1") + "],\"next_cursor\":\"c1\"}")
            .thenJson(200, "{\"items\":[" + token.formatted("2") + "],\"next_cursor\":null}")
            .thenJson(200, "{\"items\":[" + token.formatted("2") + "],\"next_cursor\":null}");
    PagedIterable<Token> tokens = client(fake, 0).tokens().list().pageSize(1);
    assertEquals(0, fake.requests.size(), "nothing is fetched before iteration");

    Page<Token> first = tokens.firstPage();
    assertEquals("limit=1", fake.last().uri().getRawQuery());
    assertEquals(List.of("tok_1"), first.items().stream().map(Token::id).toList());

    List<String> rest = tokens.fromCursor(first.nextCursor()).stream().map(Token::id).toList();
    assertEquals(List.of("tok_2"), rest);
    assertEquals("limit=1&cursor=c1", fake.last().uri().getRawQuery());

    List<Page<Token>> pages = new ArrayList<>();
    tokens.fromCursor("c1").pages().forEach(pages::add);
    assertEquals(1, pages.size());
    assertThrows(IllegalArgumentException.class, () -> tokens.pageSize(0));
  }

  @Test
  void eventsListStartsAfterTheFilterThenFollowsCursorsOnly() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[],\"next_cursor\":\"c1\"}")
            .thenJson(200, "{\"items\":[],\"next_cursor\":null}");
    client(fake, 0).events().list(EventFilter.after(9).withTypes("asset.*")).pageSize(5).stream().count();
    assertEquals("after=9&types=asset.%2A&limit=5", fake.requests.get(0).uri().getRawQuery());
    assertEquals("types=asset.%2A&limit=5&cursor=c1", fake.requests.get(1).uri().getRawQuery());
  }

  @Test
  void connectReturnsOnceTheStreamIsUpAndOnConnectRunsOnEveryConnection() {
    String frame =
        "id: 1\nevent: a.b\ndata: {\"id\":\"evt_1\",\"seq\":1,\"type\":\"a.b\","
            + "\"occurred_at\":\"2026-01-01T00:00:00Z\",\"actor\":\"x\",\"data\":{}}\n\n";
    String frame2 = frame.replace("1", "2");
    FakeTransport fake =
        new FakeTransport()
            .then(r -> FakeTransport.response(200, frame, "text/event-stream"))
            .then(r -> FakeTransport.response(200, frame2, "text/event-stream"));
    List<Integer> connected = new ArrayList<>();
    try (EventStream events =
        client(fake, 0).events().stream().onConnect(() -> connected.add(fake.requests.size()))) {
      assertEquals(0, fake.requests.size());
      assertTrue(events.connect() == events);
      assertEquals(List.of(1), connected, "connect() returned after the first connection was up");
      assertEquals(1L, events.next().seq());
      assertEquals(2L, events.next().seq());
      assertEquals(List.of(1, 2), connected, "and the listener ran again on the reconnection");
    }
    EventStream closed = client(fake, 0).events().stream();
    closed.close();
    assertThrows(IllegalStateException.class, closed::connect);
  }
}
