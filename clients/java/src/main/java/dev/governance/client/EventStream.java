package dev.governance.client;

import dev.governance.client.exception.ConnectionException;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.model.Event;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The live event stream ({@code GET /events/stream}) as an endless iterator; obtain it with
 * {@link EventsService#stream}. Close it when done (try-with-resources): that ends the
 * connection, and a {@link #hasNext()} blocked in another thread then returns false.
 *
 * <pre>{@code
 * try (EventStream events = client.events().stream(EventFilter.after(lastSeq).withTypes("asset.*"))
 *     .onConnect(() -> log.info("subscribed"))   // each time a connection is up, reconnects too
 *     .connect()) {                             // returns once the service answered 200
 *   while (events.hasNext()) {
 *     Event e = events.next();
 *     handle(e);
 *     lastSeq = e.seq();                  // or events.lastSeq(): where to resume later
 *   }
 * }
 * }</pre>
 *
 * <p>The service subscribes the stream before it answers, so once {@link #connect()} returns
 * (or an {@link #onConnect} listener runs) every event written from then on is delivered.
 *
 * <p>When the connection drops (or the service ends it), the stream waits the delay the service
 * asked for with {@code retry:} (2 s by default) and reconnects with {@code Last-Event-ID}: the
 * service replays what was missed, and an event already handed out is never handed out
 * again. A connection silent for longer than the per-attempt timeout (the service sends a
 * heartbeat every 15 s) is presumed dead and replaced the same way. Opening a connection is
 * retried like any GET; when that fails for good, or the service refuses the stream (401 for
 * a revoked token, 422 for a bad type pattern), {@code hasNext()} throws the
 * {@link GovernanceException} and the stream is closed.
 *
 * <p>Not thread-safe for reading: one thread iterates; any thread may {@link #close()}.
 */
public final class EventStream implements Iterator<Event>, AutoCloseable {
  /** The reconnection delay until the service sets one with {@code retry:}. */
  public static final Duration DEFAULT_RECONNECT_DELAY = Duration.ofSeconds(2);

  private final Requester http;
  private final String types;
  private final RequestOptions options;
  private final Duration idleTimeout;
  private final Object lock = new Object();
  private final List<Runnable> connectListeners = new CopyOnWriteArrayList<>();

  /** The seq of the last event read from the service: where a reconnection resumes. */
  private Long received;
  /** The seq of the last event handed out by {@link #next()}. */
  private Long lastSeq;
  private Duration reconnectDelay = DEFAULT_RECONNECT_DELAY;
  private boolean connectedBefore;
  private StreamingResponse current;
  private IdleWatch watch;
  private SseReader reader;
  private Event next;
  private volatile boolean closed;

  EventStream(Requester http, Long after, String types, RequestOptions options, Duration idleTimeout) {
    this.http = http;
    this.received = after;
    this.lastSeq = after;
    this.types = types;
    this.options = options;
    this.idleTimeout = idleTimeout;
  }

  /**
   * Runs {@code listener} each time a connection is up (the service answered 200 and has
   * subscribed it), the first and every reconnection, in the thread that reads the stream,
   * before that connection's events. A listener that throws closes the stream and the
   * exception surfaces from {@link #connect()} or {@link #hasNext()}.
   *
   * @return this stream
   */
  public EventStream onConnect(Runnable listener) {
    connectListeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  /**
   * Opens the connection now, instead of at the first {@link #hasNext()}, and returns once the
   * service has answered 200: from then on the stream is subscribed and misses no event. Does
   * nothing when a connection is already open.
   *
   * @return this stream
   * @throws GovernanceException when the stream cannot be opened; the stream is then closed
   * @throws IllegalStateException when the stream is closed
   */
  public EventStream connect() {
    if (closed) {
      throw new IllegalStateException("the event stream is closed");
    }
    try {
      if (reader == null && !open()) {
        throw new IllegalStateException("the event stream was closed while connecting");
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    return this;
  }

  /**
   * Waits for the next event; false only once the stream is closed.
   *
   * @throws GovernanceException when the stream cannot be (re)opened; the stream is then closed
   */
  @Override
  public boolean hasNext() {
    if (next == null && !closed) {
      try {
        next = advance();
      } catch (RuntimeException e) {
        close();
        throw e;
      }
    }
    return next != null;
  }

  @Override
  public Event next() {
    if (!hasNext()) {
      throw new NoSuchElementException("the event stream is closed");
    }
    Event event = next;
    next = null;
    lastSeq = event.seq();
    return event;
  }

  /**
   * The {@code seq} of the last event handed out (at first, the {@code after} the stream was
   * opened with; empty when neither): pass it as {@code after} to resume later.
   */
  public OptionalLong lastSeq() {
    return lastSeq == null ? OptionalLong.empty() : OptionalLong.of(lastSeq);
  }

  /** The delay before reconnecting, as the service last set it with {@code retry:}. */
  public Duration reconnectDelay() {
    return reconnectDelay;
  }

  /** A sequential {@code Stream} over the events; closing it closes this. */
  public Stream<Event> stream() {
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(this::close);
  }

  /** Ends the connection; idempotent, callable from any thread. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
    detach();
  }

  private Event advance() {
    while (!closed) {
      if (reader == null && !open()) {
        return null;
      }
      SseReader.Frame frame = readFrame();
      if (reader.retryMillis() != null) {
        reconnectDelay = Duration.ofMillis(reader.retryMillis());
      }
      if (frame == null) {
        disconnect();
        continue;
      }
      Event event = parse(frame);
      if (received == null || event.seq() > received) {
        received = event.seq();
        return event;
      }
    }
    return null;
  }

  /** Opens a connection (after the reconnection delay if one dropped); false when closed. */
  private boolean open() {
    ApiCall call =
        ApiCall.get("/events/stream")
            .param("types", types)
            .accept("text/event-stream")
            .header("Cache-Control", "no-cache")
            .options(options);
    if (connectedBefore) {
      http.pause(reconnectDelay, call);
    }
    if (received != null) {
      call.header("Last-Event-ID", String.valueOf(received));
    }
    StreamingResponse response = http.open(call);
    String type = response.header("Content-Type").orElse("");
    if (!type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
      release(response);
      throw new GovernanceException(
          "HTTP " + response.status() + ": the answer is not an event stream (" + type + ")",
          response.status(), "invalid_response", response.header("X-Request-ID").orElse(null), null);
    }
    IdleWatch watching = new IdleWatch(response.body(), idleTimeout);
    boolean kept;
    synchronized (lock) {
      kept = !closed;
      if (kept) {
        current = response;
        watch = watching;
      }
    }
    if (!kept) {
      watching.close();
      release(response);
      return false;
    }
    connectedBefore = true;
    reader = new SseReader(new BufferedInputStream(watching.stream(), 16 * 1024));
    connectListeners.forEach(Runnable::run);
    return true;
  }

  /** The next frame, or null when the connection ended (dropped, silent, or closed). */
  private SseReader.Frame readFrame() {
    try {
      return reader.next();
    } catch (IOException dropped) {
      if (Thread.currentThread().isInterrupted()) {
        throw new ConnectionException("reading the event stream was interrupted", dropped);
      }
      return null;
    }
  }

  /** Drops the connection after it ended; the next {@link #advance()} round reconnects. */
  private void disconnect() {
    detach();
    reader = null;
  }

  private void detach() {
    StreamingResponse open;
    IdleWatch watching;
    synchronized (lock) {
      open = current;
      watching = watch;
      current = null;
      watch = null;
    }
    release(open);
    if (watching != null) {
      watching.close();
    }
  }

  private static Event parse(SseReader.Frame frame) {
    try {
      return Json.MAPPER.readValue(frame.data(), Event.class);
    } catch (IOException e) {
      throw new GovernanceException(
          "an event stream frame is not an event (id " + frame.id() + "): " + e.getMessage(),
          200, "invalid_response", null, e);
    }
  }

  private static void release(StreamingResponse response) {
    if (response == null) {
      return;
    }
    try {
      response.close();
    } catch (IOException | RuntimeException ignored) {
      // Closing is best effort: the connection is abandoned either way.
    }
  }
}
