package dev.governance.client;

import static org.junit.jupiter.api.Assertions.fail;

import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetFilter;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What the live tests (*IT, run by {@code mvn verify}) share: the service named by
 * GOVERNANCE_URL with GOVERNANCE_TOKEN (an admin token), as clients/harness.py sets them. Other
 * client suites share the database, so every test works under its own unique names.
 */
final class Live {
  private Live() {}

  static String url() {
    return require("GOVERNANCE_URL");
  }

  static String token() {
    return require("GOVERNANCE_TOKEN");
  }

  /** A client for the service under test; fails (never skips) when it is not configured. */
  static GovernanceClient client() {
    return GovernanceClient.builder().baseUrl(url()).token(token()).build();
  }

  static String unique(String what) {
    return "java-" + UUID.randomUUID() + "-" + what;
  }

  /** Deletes every asset (and so every edge) whose id holds the prefix. */
  static void cleanUp(GovernanceClient client, String prefix) {
    client.assets().list(AssetFilter.builder().q(prefix).build()).stream()
        .map(Asset::id)
        .toList()
        .forEach(client.assets()::delete);
  }

  /**
   * Polls {@code probe} until it answers, for at most {@code within}: the one place the live
   * tests wait for the service's background work (webhook deliveries).
   */
  static <T> T eventually(Duration within, String what, Supplier<Optional<T>> probe) {
    long deadline = System.nanoTime() + within.toNanos();
    for (long pause = 20; ; pause = Math.min(pause * 2, 500)) {
      Optional<T> answer = probe.get();
      if (answer.isPresent()) {
        return answer.get();
      }
      if (System.nanoTime() > deadline) {
        return fail("not within " + within.toSeconds() + " s: " + what);
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return fail("interrupted while waiting for " + what);
      }
    }
  }

  private static String require(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      fail(
          "the live tests need a running service: set GOVERNANCE_URL (e.g. http://127.0.0.1:8080)"
              + " and GOVERNANCE_TOKEN (an admin token), or run `python clients/harness.py java`"
              + " from the repository root, which starts one and sets both. `mvn test` runs the"
              + " unit tests alone.");
    }
    return value;
  }
}
