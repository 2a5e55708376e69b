package dev.governance.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The default {@link Transport}: {@code java.net.http.HttpClient}, redirects not followed,
 * HTTP/1.1 for plain {@code http://} (no h2c upgrade dance), HTTP/2 when TLS offers it.
 */
public final class JdkHttpTransport implements Transport {
  private final HttpClient http;

  /** A transport over a new {@code HttpClient} with a 10 s connect timeout. */
  public JdkHttpTransport() {
    this(
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build());
  }

  /** A transport over your own {@code HttpClient} (proxy, SSL context, executor, ...). */
  public JdkHttpTransport(HttpClient http) {
    this.http = http;
  }

  @Override
  public TransportResponse send(TransportRequest request) throws IOException, InterruptedException {
    HttpResponse<byte[]> response = http.send(toJdk(request), HttpResponse.BodyHandlers.ofByteArray());
    return new TransportResponse(response.statusCode(), response.headers().map(), response.body());
  }

  /** The body as an {@code InputStream}; the request timeout covers the headers only. */
  @Override
  public StreamingResponse openStream(TransportRequest request)
      throws IOException, InterruptedException {
    HttpResponse<InputStream> response =
        http.send(toJdk(request), HttpResponse.BodyHandlers.ofInputStream());
    return new StreamingResponse(response.statusCode(), response.headers().map(), response.body());
  }

  private static HttpRequest toJdk(TransportRequest request) {
    HttpRequest.BodyPublisher body =
        request.body() == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(request.body());
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(request.uri()).method(request.method(), body);
    if (request.timeout() != null) {
      builder.timeout(request.timeout());
    }
    if ("http".equalsIgnoreCase(request.uri().getScheme())) {
      builder.version(HttpClient.Version.HTTP_1_1);
    }
    for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
      for (String value : header.getValue()) {
        builder.header(header.getKey(), value);
      }
    }
    return builder.build();
  }
}
