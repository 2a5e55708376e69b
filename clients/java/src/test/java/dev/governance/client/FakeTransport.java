package dev.governance.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** A scripted transport: answers queued in order, every request recorded. */
final class FakeTransport implements Transport {
  interface Answer {
    TransportResponse answer(TransportRequest request) throws IOException;
  }

  final List<TransportRequest> requests = new ArrayList<>();
  private final Deque<Answer> answers = new ArrayDeque<>();
  private Answer fallback;

  FakeTransport then(Answer answer) {
    answers.add(answer);
    return this;
  }

  FakeTransport thenJson(int status, String json, String... headerPairs) {
    return then(request -> response(status, json, "application/json", headerPairs));
  }

  FakeTransport thenProblem(int status, String code, String... headerPairs) {
    String body =
        "{\"type\":\"/problems/" + code + "\",\"title\":\"t\",\"status\":" + status
            + ",\"detail\":\"d\",\"instance\":\"/x\",\"code\":\"" + code
            + "\",\"request_id\":\"req-" + status + "\"}";
    return then(request -> response(status, body, "application/problem+json", headerPairs));
  }

  FakeTransport thenThrow(IOException error) {
    return then(request -> {
      throw error;
    });
  }

  /** The answer once the queue is empty. */
  FakeTransport always(Answer answer) {
    this.fallback = answer;
    return this;
  }

  @Override
  public TransportResponse send(TransportRequest request) throws IOException {
    requests.add(request);
    Answer next = answers.isEmpty() ? fallback : answers.poll();
    if (next == null) {
      throw new AssertionError("unexpected request " + request.method() + " " + request.uri());
    }
    return next.answer(request);
  }

  TransportRequest last() {
    return requests.get(requests.size() - 1);
  }

  /** A client of http://localhost:8080 with token dgs_test over {@code transport}. */
  static GovernanceClient client(Transport transport, int retries, Sleeper sleeper) {
    return new GovernanceClient.Builder(name -> null)
        .baseUrl("http://localhost:8080")
        .token("dgs_test")
        .transport(transport)
        .maxRetries(retries)
        .sleeper(sleeper)
        .build();
  }

  /** The request's JSON body. */
  static JsonNode jsonOf(TransportRequest request) throws IOException {
    return Json.MAPPER.readTree(request.body());
  }

  static TransportResponse response(int status, String body, String type, String... headerPairs) {
    Map<String, List<String>> headers = new java.util.LinkedHashMap<>();
    headers.put("content-type", List.of(type));
    for (int i = 0; i + 1 < headerPairs.length; i += 2) {
      headers.put(headerPairs[i], List.of(headerPairs[i + 1]));
    }
    return new TransportResponse(status, headers, body.getBytes(StandardCharsets.UTF_8));
  }

  static String bodyOf(TransportRequest request) {
    return request.body() == null ? null : new String(request.body(), StandardCharsets.UTF_8);
  }
}
