package dev.governance.client;

import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One API operation before it becomes a {@link TransportRequest}. */
final class ApiCall {
  static final String JSON = "application/json";
  static final String MERGE_PATCH_JSON = "application/merge-patch+json";

  final String method;
  final String path;
  final List<Map.Entry<String, String>> query = new ArrayList<>();
  final Map<String, String> headers = new LinkedHashMap<>();
  byte[] body;
  String contentType;
  boolean autoIdempotencyKey = true;
  /** Overrides the client's per-attempt timeout when set. */
  Duration timeout;

  private ApiCall(String method, String path) {
    this.method = method;
    this.path = path;
  }

  static ApiCall get(String path) {
    return new ApiCall("GET", path);
  }

  static ApiCall post(String path) {
    return new ApiCall("POST", path);
  }

  static ApiCall put(String path) {
    return new ApiCall("PUT", path);
  }

  static ApiCall patch(String path) {
    return new ApiCall("PATCH", path);
  }

  static ApiCall delete(String path) {
    return new ApiCall("DELETE", path);
  }

  /** Adds a query parameter unless the value is null. */
  ApiCall param(String name, Object value) {
    if (value != null) {
      query.add(new AbstractMap.SimpleImmutableEntry<>(name, String.valueOf(value)));
    }
    return this;
  }

  ApiCall header(String name, String value) {
    if (value != null) {
      headers.put(name, value);
    }
    return this;
  }

  ApiCall ifMatch(Long version) {
    return version == null ? this : header("If-Match", "\"" + version + "\"");
  }

  ApiCall json(Object value) {
    return body(Json.write(value), JSON);
  }

  ApiCall body(byte[] bytes, String type) {
    this.body = bytes;
    this.contentType = type;
    return this;
  }

  /** A per-attempt timeout of at least {@code minimum} (longer if the client's already is). */
  ApiCall timeoutAtLeast(Duration minimum) {
    this.timeout = minimum;
    return this;
  }

  /** Never add an Idempotency-Key automatically (so the POST is not retried). */
  ApiCall withoutIdempotencyKey() {
    this.autoIdempotencyKey = false;
    return this;
  }
}
