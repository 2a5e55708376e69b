package dev.governance.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One HTTP answer: status, headers (names in any case) and the body bytes (never null). */
public record TransportResponse(int status, Map<String, List<String>> headers, byte[] body) {

  public TransportResponse {
    headers = headers == null ? Map.of() : Map.copyOf(headers);
    body = body == null ? new byte[0] : body;
  }

  /** The first value of a header, matched case-insensitively. */
  public Optional<String> header(String name) {
    return Headers.first(headers, name);
  }

  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
