package dev.governance.client;

import java.time.Duration;

/**
 * Waits between retries and before the event stream reconnects. The default is
 * {@code Thread.sleep}; tests inject a recorder.
 */
@FunctionalInterface
public interface Sleeper {
  Sleeper THREAD = duration -> Thread.sleep(duration.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
