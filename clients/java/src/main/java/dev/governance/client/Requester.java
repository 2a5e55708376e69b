package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import dev.governance.client.exception.ConnectionException;
import dev.governance.client.exception.ErrorDetails;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.exception.RequestTimeoutException;
import dev.governance.client.model.Problem;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Turns an {@link ApiCall} into HTTP: headers, retries, and errors as exceptions. */
final class Requester {
  private final String baseUrl;
  private final String token;
  private final Transport transport;
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final Duration timeout;
  private final String userAgent;

  Requester(
      String baseUrl,
      String token,
      Transport transport,
      RetryPolicy policy,
      Sleeper sleeper,
      Duration timeout,
      String userAgent) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.transport = transport;
    this.policy = policy;
    this.sleeper = sleeper;
    this.timeout = timeout;
    this.userAgent = userAgent;
  }

  String baseUrl() {
    return baseUrl;
  }

  <T> T json(ApiCall call, Class<T> type) {
    return decode(execute(call), Json.MAPPER.constructType(type));
  }

  <T> T json(ApiCall call, TypeReference<T> type) {
    return decode(execute(call), Json.MAPPER.getTypeFactory().constructType(type));
  }

  <T> T decode(TransportResponse response, JavaType type) {
    try {
      return Json.read(response.body(), type);
    } catch (IOException e) {
      throw new GovernanceException(
          "HTTP " + response.status() + ": the answer is not the expected JSON (" + e.getMessage() + ")",
          response.status(),
          "invalid_response",
          response.header("X-Request-ID").orElse(null),
          e);
    }
  }

  /** Sends the call, retrying what the policy allows; returns a 1xx-3xx answer or throws. */
  TransportResponse execute(ApiCall call) {
    Map<String, List<String>> headers = headersFor(call);
    boolean hasKey = headers.containsKey("Idempotency-Key");
    TransportRequest request =
        new TransportRequest(call.method, uriFor(call), headers, call.body, timeoutFor(call));
    for (int attempt = 0; ; attempt++) {
      boolean canRetry = attempt < policy.maxRetries();
      TransportResponse response;
      try {
        response = transport.send(request);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectionException(call.method + " " + call.path + " was interrupted", e);
      } catch (IOException e) {
        GovernanceException error = connectionError(call, e);
        if (canRetry && RetryPolicy.shouldRetryConnectionError(call.method, hasKey)) {
          pause(policy.delay(attempt, null).orElse(Duration.ZERO), call);
          continue;
        }
        throw error;
      }
      if (response.status() < 400) {
        return response;
      }
      GovernanceException error = GovernanceException.of(details(response));
      if (canRetry && RetryPolicy.shouldRetry(call.method, response.status(), hasKey)) {
        Optional<Duration> wait = policy.delay(attempt, error.retryAfter().orElse(null));
        if (wait.isPresent()) {
          pause(wait.get(), call);
          continue;
        }
      }
      throw error;
    }
  }

  private Duration timeoutFor(ApiCall call) {
    return call.timeout != null && call.timeout.compareTo(timeout) > 0 ? call.timeout : timeout;
  }

  private URI uriFor(ApiCall call) {
    String query = Urls.encodeQuery(call.query);
    // Already percent-encoded: URI.create keeps %2F and friends exactly as given.
    return URI.create(baseUrl + call.path + (query.isEmpty() ? "" : "?" + query));
  }

  private Map<String, List<String>> headersFor(ApiCall call) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Accept", List.of("application/json, application/problem+json"));
    headers.put("User-Agent", List.of(userAgent));
    if (token != null) {
      headers.put("Authorization", List.of("Bearer " + token));
    }
    if (call.body != null) {
      headers.put("Content-Type", List.of(call.contentType));
    }
    call.headers.forEach((name, value) -> headers.put(name, List.of(value)));
    if (call.method.equals("POST")
        && call.autoIdempotencyKey
        && policy.maxRetries() > 0
        && !headers.containsKey("Idempotency-Key")) {
      headers.put("Idempotency-Key", List.of(UUID.randomUUID().toString()));
    }
    return headers;
  }

  private void pause(Duration wait, ApiCall call) {
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectionException(
          "interrupted while waiting to retry " + call.method + " " + call.path, e);
    }
  }

  private static GovernanceException connectionError(ApiCall call, IOException e) {
    String what = call.method + " " + call.path;
    if (e instanceof HttpTimeoutException || e instanceof SocketTimeoutException) {
      return new RequestTimeoutException(what + " timed out: " + e.getMessage(), e);
    }
    return new ConnectionException(
        what + " failed to connect: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()),
        e);
  }

  static ErrorDetails details(TransportResponse response) {
    String text = response.bodyText();
    Problem problem = null;
    if (looksLikeJson(response, text)) {
      try {
        problem = Json.MAPPER.readValue(response.body(), Problem.class);
      } catch (IOException | RuntimeException notAProblem) {
        problem = null;
      }
    }
    String requestId =
        problem != null && problem.requestId() != null
            ? problem.requestId()
            : response.header("X-Request-ID").orElse(null);
    Duration retryAfter =
        RetryPolicy.parseRetryAfter(response.header("Retry-After").orElse(null), Instant.now());
    return new ErrorDetails(
        response.status(), problem == null ? null : problem.code(), requestId, problem, text, retryAfter);
  }

  private static boolean looksLikeJson(TransportResponse response, String text) {
    String type = response.header("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    return type.contains("json") || text.stripLeading().startsWith("{");
  }
}
