package dev.governance.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Sends one HTTP request and returns the answer, whatever its status. The client builds the
 * request (URL, headers, body, timeout) and handles retries, errors and JSON on top; a
 * transport only moves bytes. The default is {@link JdkHttpTransport} over
 * {@code java.net.http.HttpClient}; swap it to add logging, metrics, a proxy, or a fake in tests.
 *
 * <p>Throw {@link java.net.http.HttpTimeoutException} (or {@link java.net.SocketTimeoutException})
 * when no answer arrived in time, and another {@link IOException} when the connection failed:
 * the client retries both like a 503.
 */
@FunctionalInterface
public interface Transport {
  TransportResponse send(TransportRequest request) throws IOException, InterruptedException;

  /**
   * Sends a request whose answer is read as it arrives: the live event stream. The request's
   * timeout bounds the wait for the status and headers only; the body is an open stream that
   * the caller closes. Closing it from another thread must end a read blocked on it.
   *
   * <p>The default calls {@link #send} and hands over the whole body, which suits finite
   * answers (and scripted transports in tests) but never ends for a live stream: a transport
   * that wraps another should delegate this method too.
   */
  default StreamingResponse openStream(TransportRequest request)
      throws IOException, InterruptedException {
    TransportResponse response = send(request);
    return new StreamingResponse(
        response.status(), response.headers(), new ByteArrayInputStream(response.body()));
  }
}
