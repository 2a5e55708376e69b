package dev.governance.client;

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
}
