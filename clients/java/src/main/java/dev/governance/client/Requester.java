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
  private final String rootUrl;
  private final String token;
  private final Transport transport;
  private final RetryPolicy policy;
  private final int maxRetries;
  private final Sleeper sleeper;
  private final Duration timeout;
  private final String userAgent;

  /** One attempt: send the request, get an answer of type R. */
  @FunctionalInterface
  private interface Attempt<R> {
    R send(TransportRequest request) throws IOException, InterruptedException;
  }

  /** The answer as an error to report, or null when it is a success (1xx-3xx). */
  @FunctionalInterface
  private interface Failure<R> {
    TransportResponse of(R answer) throws IOException;
  }

  Requester(
      String baseUrl,
      String token,
      Transport transport,
      RetryPolicy policy,
      int maxRetries,
      Sleeper sleeper,
      Duration timeout,
      String userAgent) {
    this.baseUrl = baseUrl;
    this.rootUrl = baseUrl.substring(0, baseUrl.length() - Urls.API_PREFIX.length());
    this.token = token;
    this.transport = transport;
    this.policy = policy;
    this.maxRetries = maxRetries;
    this.sleeper = sleeper;
    this.timeout = timeout;
    this.userAgent = userAgent;
  }

  String baseUrl() {
    return baseUrl;
  }

  /** The per-attempt timeout for calls made with these options. */
  Duration timeout(RequestOptions options) {
    return options != null && options.timeout() != null ? options.timeout() : timeout;
  }

  <T> T json(ApiCall call, Class<T> type) {
    return call(call, type).value();
  }

  <T> T json(ApiCall call, TypeReference<T> type) {
    return call(call, type).value();
  }

  <T> Response<T> call(ApiCall call, TypeReference<T> type) {
    return decoded(call, Json.MAPPER.getTypeFactory().constructType(type));
  }

  <T> Response<T> call(ApiCall call, Class<T> type) {
    return decoded(call, Json.MAPPER.constructType(type));
  }

  /** Sends the call and decodes its JSON answer as {@code type}, which must be T's. */
  private <T> Response<T> decoded(ApiCall call, JavaType type) {
    TransportResponse response = execute(call);
    T value = decode(response, type);
    return new Response<>(response.status(), response.headers(), value);
  }

  /** Sends a call whose answer has no body worth reading (204). */
  Response<Void> callWithoutBody(ApiCall call) {
    TransportResponse response = execute(call);
    return new Response<>(response.status(), response.headers(), null);
  }

  /** Sends a call whose answer is text (metrics). */
  Response<String> callForText(ApiCall call) {
    TransportResponse response = execute(call);
    return new Response<>(response.status(), response.headers(), response.bodyText());
  }

  <T> T decode(TransportResponse response, JavaType type) {
    try {
      return Json.read(response.body(), type);
    } catch (IOException e) {
      throw notTheExpectedJson(response.status(), response.header("X-Request-ID"), e);
    }
  }

  private static GovernanceException notTheExpectedJson(
      int status, Optional<String> requestId, Exception e) {
    return new GovernanceException(
        "HTTP " + status + ": the answer is not the expected JSON (" + e.getMessage() + ")",
        status, "invalid_response", requestId.orElse(null), e);
  }

  /** Sends the call, retrying what the policy allows; returns a 1xx-3xx answer or throws. */
  TransportResponse execute(ApiCall call) {
    return exchange(call, transport::send, r -> r.status() < 400 ? null : r);
  }

  /** Opens a streamed answer (the event stream) with the same retries; 1xx-3xx or throws. */
  StreamingResponse open(ApiCall call) {
    return exchange(call, transport::openStream, r -> r.status() < 400 ? null : r.drain());
  }

  private <R> R exchange(ApiCall call, Attempt<R> attempt, Failure<R> failure) {
    Map<String, List<String>> headers = headersFor(call);
    boolean replayable = replayable(call, headers);
    int retries = retriesFor(call);
    TransportRequest request =
        new TransportRequest(call.method, uriFor(call), headers, call.body, timeoutFor(call));
    for (int n = 0; ; n++) {
      boolean canRetry = replayable && n < retries;
      TransportResponse failed;
      try {
        R answer = attempt.send(request);
        failed = failure.of(answer);
        if (failed == null) {
          return answer;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectionException(call.method + " " + call.path + " was interrupted", e);
      } catch (IOException e) {
        if (!canRetry) {
          throw connectionError(call, e);
        }
        pause(policy.delay(n, null), call);
        continue;
      }
      GovernanceException error = GovernanceException.of(details(failed));
      if (!canRetry || !RetryPolicy.isRetryableStatus(failed.status())) {
        throw error;
      }
      pause(policy.delay(n, error.retryAfter().orElse(null)), call);
    }
  }

  /** Whether the request may be sent again after a failed attempt. */
  private static boolean replayable(ApiCall call, Map<String, List<String>> headers) {
    return switch (call.replay) {
      case IDEMPOTENT -> true;
      case NEVER -> RetryPolicy.isReplayable(call.method, false);
      case WITH_KEY ->
          RetryPolicy.isReplayable(call.method, Headers.first(headers, "Idempotency-Key").isPresent());
    };
  }

  private int retriesFor(ApiCall call) {
    return call.options.maxRetries() != null ? call.options.maxRetries() : maxRetries;
  }

  private Duration timeoutFor(ApiCall call) {
    if (call.options.timeout() != null) {
      return call.options.timeout();
    }
    Duration minimum = call.minimumTimeout;
    return minimum != null && minimum.compareTo(timeout) > 0 ? minimum : timeout;
  }

  private URI uriFor(ApiCall call) {
    String query = Urls.encodeQuery(call.query);
    // Already percent-encoded: URI.create keeps %2F and friends exactly as given.
    String base = call.fromRoot ? rootUrl : baseUrl;
    return URI.create(base + call.path + (query.isEmpty() ? "" : "?" + query));
  }

  private Map<String, List<String>> headersFor(ApiCall call) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Accept", List.of(call.accept));
    headers.put("User-Agent", List.of(userAgent));
    if (token != null) {
      headers.put("Authorization", List.of("Bearer " + token));
    }
    if (call.body != null) {
      headers.put("Content-Type", List.of(call.contentType));
    }
    call.headers.forEach((name, value) -> headers.put(name, List.of(value)));
    RequestOptions options = call.options;
    if (options.idempotencyKey() != null) {
      headers.put("Idempotency-Key", List.of(options.idempotencyKey()));
    } else if (call.method.equals("POST") && call.replay == ApiCall.Replay.WITH_KEY && retriesFor(call) > 0) {
      headers.put("Idempotency-Key", List.of(UUID.randomUUID().toString()));
    }
    options.ifMatch().ifPresent(v -> headers.put("If-Match", List.of("\"" + v + "\"")));
    if (options.requestId() != null) {
      headers.put("X-Request-ID", List.of(options.requestId()));
    }
    options.headers().forEach((name, value) -> {
      headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(name));
      headers.put(name, List.of(value));
    });
    return headers;
  }

  void pause(Duration wait, ApiCall call) {
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectionException(
          "interrupted while waiting to retry " + call.method + " " + call.path, e);
    }
  }

  static GovernanceException connectionError(ApiCall call, IOException e) {
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
