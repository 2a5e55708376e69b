package dev.governance.client;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An answer whose body is read as it arrives (see {@link Transport#openStream}): status,
 * headers, and the open body, which {@link #close()} releases.
 */
public final class StreamingResponse implements Closeable {
  private final int status;
  private final Map<String, List<String>> headers;
  private final InputStream body;

  public StreamingResponse(int status, Map<String, List<String>> headers, InputStream body) {
    this.status = status;
    this.headers = headers == null ? Map.of() : Map.copyOf(headers);
    this.body = Objects.requireNonNull(body, "body");
  }

  public int status() {
    return status;
  }

  public Map<String, List<String>> headers() {
    return headers;
  }

  /** The first value of a header, matched case-insensitively. */
  public Optional<String> header(String name) {
    return Headers.first(headers, name);
  }

  public InputStream body() {
    return body;
  }

  /** Reads what is left of the body (an error answer) and closes it. */
  TransportResponse drain() throws IOException {
    try (InputStream in = body) {
      return new TransportResponse(status, headers, in.readAllBytes());
    }
  }

  @Override
  public void close() throws IOException {
    body.close();
  }
}
