package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Event;
import dev.governance.client.model.EventFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The live event stream against a running service, through a loopback TCP proxy that can cut
 * the connection: events arrive as changes happen, and after a cut the stream resumes with
 * Last-Event-ID, without a gap or a duplicate (checked against the event log).
 */
class EventStreamIT {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void seesChangesAndResumesAfterADroppedConnectionWithoutGapOrDuplicate() throws Exception {
    GovernanceClient direct = Live.client();
    String prefix = Live.unique("stream");
    AtomicInteger connections = new AtomicInteger();
    try (CuttingProxy proxy = new CuttingProxy(URI.create(Live.url()));
        EventStream stream =
            GovernanceClient.builder()
                .baseUrl("http://127.0.0.1:" + proxy.port())
                .token(Live.token())
                .build()
                .events()
                .stream(EventFilter.types("asset.*"))
                .onConnect(connections::incrementAndGet)
                .connect()) {
      assertEquals(1, connections.get(), "connect() returns once the connection is up");
      BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
      Thread reader = new Thread(() -> {
        try {
          while (stream.hasNext()) {
            seen.add(stream.next());
          }
        } catch (RuntimeException e) {
          seen.add(e);
        }
      }, "event-stream-reader");
      reader.setDaemon(true);
      reader.start();

      // Subscribed once connect() returned: the first change made after it is delivered.
      String marker = prefix + "-marker";
      direct.assets().create(AssetInput.builder(marker, "marker", "table").build());
      Event first = nextAbout(seen, marker, WAIT);
      assertTrue(first != null, "the stream missed the first change after connect()");
      streamed.clear();
      streamed.add(first);

      String before = prefix + "-before";
      direct.assets().create(AssetInput.builder(before, "before", "table").build());
      assertTrue(nextAbout(seen, before, WAIT) != null, "no event for " + before);

      proxy.cut();
      String during = prefix + "-during";
      direct.assets().create(AssetInput.builder(during, "during", "table").build());
      direct.assets().delete(before);
      Event deleted = nextAbout(seen, before, WAIT);
      assertTrue(deleted != null, "no event after the cut");
      assertEquals("asset.deleted", deleted.type());

      assertTrue(proxy.connections() >= 2, "the stream did not reconnect");
      assertTrue(connections.get() >= 2, "onConnect runs on the reconnection too");
      String resumed = proxy.requestHead(proxy.connections() - 1);
      assertTrue(
          resumed.toLowerCase(Locale.ROOT).contains("last-event-id: "),
          "the reconnection carried no Last-Event-ID:\n" + resumed);

      // What the stream handed out since the first marker is exactly the log's slice.
      long last = deleted.seq();
      List<String> logged =
          direct.events().list(EventFilter.after(first.seq() - 1).withTypes("asset.*")).stream()
              .takeWhile(e -> e.seq() <= last)
              .map(Event::id)
              .toList();
      assertEquals(logged, streamed.stream().map(Event::id).toList());
      assertTrue(logged.size() >= 4, "first marker, before, during and the deletion: " + logged);
    } finally {
      Live.cleanUp(direct, prefix);
    }
  }

  /** Every event taken from the stream, in order (from the first marker seen on). */
  private final List<Event> streamed = new ArrayList<>();

  /** The next event about asset {@code id} (null if none came in time); all taken are kept. */
  private Event nextAbout(BlockingQueue<Object> seen, String id, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      Object item = seen.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (item == null) {
        return null;
      }
      if (item instanceof RuntimeException e) {
        throw e;
      }
      Event event = (Event) item;
      streamed.add(event);
      if (id.equals(event.data().get("id"))) {
        return event;
      }
    }
  }

  /**
   * A TCP proxy on 127.0.0.1 (port 0) to the service that can cut every open connection, as a
   * failing network would; it keeps accepting new ones and records each request head.
   */
  private static final class CuttingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String host;
    private final int targetPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final List<String> heads = new CopyOnWriteArrayList<>();

    CuttingProxy(URI target) throws IOException {
      this.host = target.getHost();
      this.targetPort = target.getPort() == -1 ? 80 : target.getPort();
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor = new Thread(this::accept, "cutting-proxy");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return server.getLocalPort();
    }

    int connections() {
      return heads.size();
    }

    String requestHead(int connection) {
      return heads.get(connection);
    }

    void cut() {
      for (Socket socket : open) {
        closeQuietly(socket);
      }
      open.clear();
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket client = server.accept();
          Socket upstream = new Socket(host, targetPort);
          open.add(client);
          open.add(upstream);
          int index = heads.size();
          heads.add("");
          pump(client, upstream, index);
          pump(upstream, client, -1);
        } catch (IOException closed) {
          return;
        }
      }
    }

    /** Copies bytes one way; records the request head (up to a blank line) when index >= 0. */
    private void pump(Socket from, Socket to, int index) {
      Thread thread = new Thread(() -> {
        byte[] buffer = new byte[8192];
        StringBuilder head = new StringBuilder();
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
            if (index >= 0 && !head.toString().contains("\r\n\r\n")) {
              head.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
              heads.set(index, head.toString());
            }
            out.write(buffer, 0, n);
            out.flush();
          }
        } catch (IOException cut) {
          // One side is gone: close both.
        } finally {
          closeQuietly(from);
          closeQuietly(to);
        }
      }, "cutting-proxy-pump");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() {
      closeQuietly(server);
      cut();
    }

    private static void closeQuietly(AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // Already closed.
      }
    }
  }
}
