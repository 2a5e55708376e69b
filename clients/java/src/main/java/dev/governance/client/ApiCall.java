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

  /** How a POST may be repeated after a failed attempt. */
  enum Replay {
    /** With an Idempotency-Key, which the client adds when the user gave none. */
    WITH_KEY,
    /**
     * Freely, without an automatic key: repeating the POST cannot change the outcome. It only
     * reads (the query facility), or it merges (bulk lineage, OpenLineage events), where a key
     * would only cost the service a claim round trip. A key the caller gives is still sent.
     */
    IDEMPOTENT,
    /** Never: the service keeps no answer to replay (it would hold a secret shown once). */
    NEVER
  }

  final String method;
  final String path;
  final List<Map.Entry<String, String>> query = new ArrayList<>();
  final Map<String, String> headers = new LinkedHashMap<>();
  byte[] body;
  String contentType;
  String accept = "application/json, application/problem+json";
  Replay replay = Replay.WITH_KEY;
  /** The path is relative to the server's root, not to {@code /api/v1} (health, metrics). */
  boolean fromRoot;
  /** The per-attempt timeout this operation needs at least (uploads). */
  Duration minimumTimeout;
  RequestOptions options = RequestOptions.DEFAULTS;

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

  ApiCall json(Object value) {
    return body(Json.write(value), JSON);
  }

  /** A JSON Merge Patch (RFC 7396) body. */
  ApiCall mergePatch(Object patch) {
    return body(Json.write(patch), MERGE_PATCH_JSON);
  }

  ApiCall body(byte[] bytes, String type) {
    this.body = bytes;
    this.contentType = type;
    return this;
  }

  ApiCall accept(String mediaTypes) {
    this.accept = mediaTypes;
    return this;
  }

  /** A per-attempt timeout of at least {@code minimum} (longer if the client's already is). */
  ApiCall timeoutAtLeast(Duration minimum) {
    this.minimumTimeout = minimum;
    return this;
  }

  ApiCall replay(Replay replay) {
    this.replay = replay;
    return this;
  }

  ApiCall fromRoot() {
    this.fromRoot = true;
    return this;
  }

  ApiCall options(RequestOptions options) {
    this.options = options == null ? RequestOptions.DEFAULTS : options;
    return this;
  }
}
