package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.AuthenticationException;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Event;
import dev.governance.client.model.EventFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The live event stream over scripted connections: parsing, resuming, closing. */
class EventStreamTest {
  private final List<Duration> slept = new ArrayList<>();

  private static String event(long seq, String type) {
    return "{\"id\":\"evt_" + seq + "\",\"seq\":" + seq + ",\"type\":\"" + type + "\","
        + "\"occurred_at\":\"2026-01-01T00:00:00Z\",\"actor\":\"token:tok_1\",\"data\":{\"id\":\"a" + seq + "\"}}";
  }

  private static String frame(long seq, String type) {
    return "id: " + seq + "\nevent: " + type + "\ndata: " + event(seq, type) + "\n\n";
  }

  private static TransportResponse sse(String body) {
    return FakeTransport.response(200, body, "text/event-stream; charset=utf-8");
  }

  private GovernanceClient client(Transport transport, int retries) {
    return FakeTransport.client(transport, retries, slept::add);
  }

  @Test
  void readsEventsSkipsCommentsAndResumesAfterADropWithoutDuplicates() {
    FakeTransport fake =
        new FakeTransport()
            .then(r -> sse("retry: 1500\n: connected\n\n" + frame(5, "asset.created")
                + ": keepalive\n\n" + frame(6, "asset.updated")))
            .then(r -> sse("retry: 1500\n: connected\n\n" + frame(6, "asset.updated")
                + frame(7, "asset.deleted")));
    try (EventStream events = client(fake, 0).events().stream(EventFilter.after(4).withTypes("asset.*"))) {
      assertEquals(0, fake.requests.size(), "nothing is sent before the first hasNext()");
      List<Long> seqs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Event e = events.next();
        seqs.add(e.seq());
      }
      assertEquals(List.of(5L, 6L, 7L), seqs);
      assertEquals(OptionalLong.of(7), events.lastSeq());
      assertEquals(Duration.ofMillis(1500), events.reconnectDelay());
    }
    TransportRequest first = fake.requests.get(0);
    assertEquals("GET", first.method());
    assertEquals("/api/v1/events/stream", first.uri().getRawPath());
    assertEquals("types=asset.%2A", first.uri().getRawQuery());
    assertEquals(Optional.of("text/event-stream"), first.header("Accept"));
    assertEquals(Optional.of("4"), first.header("Last-Event-ID"));
    assertEquals(Optional.of("6"), fake.requests.get(1).header("Last-Event-ID"));
    assertEquals(List.of(Duration.ofMillis(1500)), slept, "waits what retry: asked before reconnecting");
  }

  @Test
  void withoutAfterTheFirstConnectionSendsNoLastEventIdAndDefaultDelayIsTwoSeconds() {
    FakeTransport fake =
        new FakeTransport().then(r -> sse(": connected\n\n")).then(r -> sse(frame(1, "asset.created")));
    try (EventStream events = client(fake, 0).events().stream()) {
      assertEquals(OptionalLong.empty(), events.lastSeq());
      assertEquals(1L, events.next().seq());
    }
    assertTrue(fake.requests.get(0).header("Last-Event-ID").isEmpty());
    assertNull(fake.requests.get(0).uri().getRawQuery());
    assertTrue(fake.requests.get(1).header("Last-Event-ID").isEmpty());
    assertEquals(List.of(EventStream.DEFAULT_RECONNECT_DELAY), slept);
  }

  @Test
  void aStreamOfJavaStreamsClosesWithIt() {
    FakeTransport fake = new FakeTransport().then(r -> sse(frame(1, "a.b") + frame(2, "a.c") + frame(3, "a.d")));
    EventStream events = client(fake, 0).events().stream(EventFilter.after(0));
    try (var stream = events.stream()) {
      assertEquals(List.of("a.b", "a.c"), stream.limit(2).map(Event::type).toList());
    }
    assertFalse(events.hasNext(), "closing the Stream closes the EventStream");
    assertEquals(1, fake.requests.size());
  }

  @Test
  void aFailedConnectionIsRetriedWithBackoffThenReported() {
    FakeTransport fake =
        new FakeTransport()
            .thenThrow(new ConnectException("refused"))
            .thenProblem(503, "neo4j_unavailable", "Retry-After", "1")
            .then(r -> sse(frame(9, "x.y")));
    try (EventStream events = client(fake, 2).events().stream(EventFilter.after(8))) {
      assertEquals(9L, events.next().seq());
    }
    assertEquals(3, fake.requests.size());
    assertEquals(2, slept.size());
    assertEquals(Duration.ofSeconds(1), slept.get(1));

    FakeTransport refused = new FakeTransport().thenProblem(422, "validation_error");
    EventStream bad = client(refused, 2).events().stream(EventFilter.types("no such"));
    assertThrows(ValidationException.class, bad::hasNext);
    assertFalse(bad.hasNext(), "a stream that failed is closed");
  }

  @Test
  void aRevokedTokenEndsTheStreamWithTheError() {
    FakeTransport fake =
        new FakeTransport().then(r -> sse(frame(1, "a.b"))).thenProblem(401, "invalid_token");
    EventStream events = client(fake, 2).events().stream(EventFilter.after(0));
    assertEquals(1L, events.next().seq());
    AuthenticationException error = assertThrows(AuthenticationException.class, events::hasNext);
    assertEquals("invalid_token", error.code());
    assertEquals(2, fake.requests.size());
  }

  @Test
  void anAnswerThatIsNotAStreamIsAnError() {
    FakeTransport fake = new FakeTransport().thenJson(200, "{}");
    GovernanceException error =
        assertThrows(GovernanceException.class, () -> client(fake, 0).events().stream().hasNext());
    assertEquals("invalid_response", error.code());
  }

  @Test
  void closingFromAnotherThreadEndsABlockedRead() throws Exception {
    Connections connections = new Connections().add(new Hanging(": connected\n\n"));
    EventStream events = client(connections, 0).events().stream();
    CompletableFuture<Boolean> reader = CompletableFuture.supplyAsync(events::hasNext);
    assertTrue(connections.opened.await(10, TimeUnit.SECONDS));
    events.close();
    assertFalse(reader.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aSilentConnectionIsReplacedAfterTheTimeout() {
    Connections connections =
        new Connections()
            .add(new Hanging("retry: 0\n\n" + frame(1, "a.b")))
            .add(new ByteArrayInputStream(frame(2, "a.c").getBytes(StandardCharsets.UTF_8)));
    RequestOptions quick = RequestOptions.timeout(Duration.ofMillis(200));
    try (EventStream events = client(connections, 0).events().stream(EventFilter.after(0), quick)) {
      assertEquals(1L, events.next().seq());
      assertEquals(2L, events.next().seq());
    }
    assertEquals(List.of("0", "1"), connections.lastEventIds);
  }

  @Test
  void readerHandlesEveryLineEndingMultiLineDataAndIds() throws IOException {
    String text = "\uFEFFid: 1\r\ndata: a\r\ndata:b\r\n\r\n:comment\rdata: c\r\r"
        + "event: x\nid\ndata\n\nretry: 250\nretry: soon\nid: 3\u0000\ndata: d\n\ndata: cut";
    SseReader reader = new SseReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    assertEquals(new SseReader.Frame("1", null, "a\nb"), reader.next());
    assertEquals(new SseReader.Frame("1", null, "c"), reader.next());
    assertEquals(new SseReader.Frame("", "x", ""), reader.next());
    assertEquals(new SseReader.Frame("", null, "d"), reader.next(), "an id holding NUL is ignored");
    assertEquals(250L, reader.retryMillis());
    assertNull(reader.next(), "a frame cut short by the end is dropped");
  }

  /** Hands out scripted bodies, one per connection, recording each Last-Event-ID. */
  private static final class Connections implements Transport {
    final Deque<InputStream> bodies = new ArrayDeque<>();
    final List<String> lastEventIds = new ArrayList<>();
    final CountDownLatch opened = new CountDownLatch(1);

    Connections add(InputStream body) {
      bodies.add(body);
      return this;
    }

    @Override
    public TransportResponse send(TransportRequest request) {
      throw new AssertionError("the stream must be opened with openStream");
    }

    @Override
    public synchronized StreamingResponse openStream(TransportRequest request) {
      lastEventIds.add(request.header("Last-Event-ID").orElse(null));
      InputStream body = bodies.poll();
      if (body == null) {
        throw new AssertionError("no more connections scripted");
      }
      opened.countDown();
      return new StreamingResponse(200, Map.of("Content-Type", List.of("text/event-stream")), body);
    }
  }

  /** A body that sends its text, then nothing until closed: a quiet or dead connection. */
  private static final class Hanging extends InputStream {
    private final byte[] text;
    private final CountDownLatch closed = new CountDownLatch(1);
    private int position;

    Hanging(String text) {
      this.text = text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int read() throws IOException {
      if (position < text.length) {
        return text[position++] & 0xff;
      }
      try {
        if (!closed.await(30, TimeUnit.SECONDS)) {
          throw new AssertionError("the stream was never closed");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      throw new IOException("closed");
    }

    @Override
    public void close() {
      closed.countDown();
    }
  }
}
