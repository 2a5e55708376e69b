package dev.governance.client;

import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a stream that has been silent for too long, so that a reader blocked on a dead
 * connection (no FIN, no RST) wakes up and reconnects. The service sends a comment every 15 s,
 * so a live stream is never silent for long. One daemon thread serves every watch.
 */
final class IdleWatch implements Closeable {
  private static final class Timer {
    static final ScheduledExecutorService INSTANCE =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "governance-event-stream-watch");
              thread.setDaemon(true);
              return thread;
            });
  }

  private final long idleNanos;
  private final Closeable target;
  private final InputStream stream;
  private volatile long lastActivity;
  private volatile boolean closed;
  private ScheduledFuture<?> check;

  /** Starts watching {@code in}: read through {@link #stream()}, stop with {@link #close()}. */
  IdleWatch(InputStream in, Duration idle) {
    this.idleNanos = idle.toNanos();
    this.target = in;
    this.stream = new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        lastActivity = System.nanoTime();
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        lastActivity = System.nanoTime();
        return n;
      }
    };
    this.lastActivity = System.nanoTime();
    schedule(idleNanos);
  }

  /** The watched stream; every read counts as activity. */
  InputStream stream() {
    return stream;
  }

  private synchronized void schedule(long delayNanos) {
    if (!closed) {
      check = Timer.INSTANCE.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void check() {
    long quiet = System.nanoTime() - lastActivity;
    if (quiet < idleNanos) {
      schedule(idleNanos - quiet);
      return;
    }
    try {
      target.close();
    } catch (IOException | RuntimeException ignored) {
      // The reader sees the stream end either way.
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (check != null) {
      check.cancel(false);
    }
  }
}
