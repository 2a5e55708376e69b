package dev.governance.client;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP request as the client hands it to a {@link Transport}. The URI is already
 * percent-encoded; transports must send its raw path and query unchanged. {@code body} is
 * null for requests without one.
 */
public record TransportRequest(
    String method, URI uri, Map<String, List<String>> headers, byte[] body, Duration timeout) {

  public TransportRequest {
    headers = Map.copyOf(headers);
  }

  /** The first value of a header, matched case-insensitively. */
  public Optional<String> header(String name) {
    return Headers.first(headers, name);
  }
}
