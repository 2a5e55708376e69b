package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.governance.client.exception.AuthenticationException;
import dev.governance.client.exception.BadRequestException;
import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.PermissionException;
import dev.governance.client.exception.PreconditionFailedException;
import dev.governance.client.exception.RateLimitedException;
import dev.governance.client.exception.ServerException;
import dev.governance.client.exception.UnavailableException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.exception.WebhookVerificationException;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every vector of clients/contract/vectors.json, shared by the four client libraries. */
class VectorsTest {
  private static final Map<String, Class<? extends GovernanceException>> KINDS =
      Map.of(
          "bad_request", BadRequestException.class,
          "authentication", AuthenticationException.class,
          "permission", PermissionException.class,
          "not_found", NotFoundException.class,
          "conflict", ConflictException.class,
          "precondition_failed", PreconditionFailedException.class,
          "validation", ValidationException.class,
          "rate_limited", RateLimitedException.class,
          "server", ServerException.class,
          "unavailable", UnavailableException.class);

  private static JsonNode vectors;

  /**
   * The class naming the error's kind: its own, or for a refinement within a kind (a
   * {@code DomainForbiddenException} is a {@code PermissionException}) the nearest superclass
   * that names one.
   */
  private static Class<?> kindClass(GovernanceException error) {
    Class<?> type = error.getClass();
    while (type != null && !KINDS.containsValue(type)) {
      type = type.getSuperclass();
    }
    return type;
  }

  @BeforeAll
  static void load() throws IOException {
    String configured = System.getProperty("governance.vectors");
    Path path = configured != null ? Paths.get(configured) : Paths.get("..", "contract", "vectors.json");
    assertTrue(Files.isRegularFile(path), "shared vectors not found at " + path.toAbsolutePath());
    vectors = new ObjectMapper().readTree(path.toFile());
  }

  private static Stream<JsonNode> group(String name) {
    JsonNode group = vectors.get(name);
    assertTrue(group != null && group.isArray() && group.size() > 0, "no vectors in " + name);
    return StreamSupport.stream(group.spliterator(), false);
  }

  @Test
  void everyGroupIsCovered() {
    List<String> names = new ArrayList<>();
    vectors.fieldNames().forEachRemaining(names::add);
    names.remove("description");
    assertEquals(
        List.of(
            "base_url",
            "path_segment",
            "errors",
            "retry",
            "retry_after",
            "bulk_chunks",
            "webhook_signatures",
            "webhook_signatures_note"),
        names,
        "vectors.json has a group this test does not know; add it here");
  }

  @TestFactory
  Stream<DynamicTest> baseUrl() {
    return group("base_url")
        .map(
            v ->
                dynamicTest(
                    v.get("input").asText(),
                    () -> {
                      String expected = v.get("expected").asText();
                      assertEquals(expected, Urls.normalizeBaseUrl(v.get("input").asText()));
                      GovernanceClient client =
                          new GovernanceClient.Builder(name -> null)
                              .baseUrl(v.get("input").asText())
                              .build();
                      assertEquals(expected, client.baseUrl());
                    }));
  }

  @TestFactory
  Stream<DynamicTest> pathSegment() {
    return group("path_segment")
        .map(
            v ->
                dynamicTest(
                    v.get("id").asText(),
                    () -> {
                      String encoded = v.get("encoded").asText();
                      assertEquals(encoded, Urls.encodeSegment(v.get("id").asText()));
                      // And what actually goes on the wire: the URI must not re-decode it.
                      FakeTransport fake =
                          new FakeTransport().always(r -> FakeTransport.response(204, "", "text/plain"));
                      client(fake).assets().delete(v.get("id").asText());
                      assertEquals("/api/v1/assets/" + encoded, fake.last().uri().getRawPath());
                      assertNull(fake.last().uri().getRawQuery());
                    }));
  }

  @TestFactory
  Stream<DynamicTest> errors() {
    return group("errors")
        .map(
            v -> {
              int status = v.get("status").asInt();
              String code = v.get("code").asText();
              String kind = v.get("kind").asText();
              return dynamicTest(
                  status + " " + code + " -> " + kind,
                  () -> {
                    Class<? extends GovernanceException> expected = KINDS.get(kind);
                    assertTrue(expected != null, "unknown kind " + kind);
                    FakeTransport fake = new FakeTransport().thenProblem(status, code);
                    GovernanceException error =
                        assertThrows(
                            GovernanceException.class,
                            () -> client(fake, 0).assets().get("x"));
                    assertSame(expected, kindClass(error));
                    assertEquals(status, error.status());
                    assertEquals(code, error.code());
                    assertEquals("req-" + status, error.requestId());
                    assertEquals(code, error.problem().code());
                  });
            });
  }

  @TestFactory
  Stream<DynamicTest> retry() {
    return group("retry")
        .map(
            v -> {
              String method = v.get("method").asText();
              int status = v.get("status").asInt();
              boolean key = v.get("idempotency_key").asBoolean();
              boolean retry = v.get("retry").asBoolean();
              return dynamicTest(
                  method + " " + status + (key ? " with key" : "") + " -> " + retry,
                  () -> assertEquals(retry, RetryPolicy.shouldRetry(method, status, key)));
            });
  }

  @TestFactory
  Stream<DynamicTest> retryAfter() {
    return group("retry_after")
        .map(
            v ->
                dynamicTest(
                    "'" + v.get("header").asText() + "'",
                    () -> {
                      Duration parsed = RetryPolicy.parseRetryAfter(v.get("header").asText(), Instant.now());
                      if (v.get("seconds").isNull()) {
                        assertNull(parsed);
                      } else {
                        assertEquals(Duration.ofSeconds(v.get("seconds").asLong()), parsed);
                      }
                    }));
  }

  @TestFactory
  Stream<DynamicTest> bulkChunks() {
    return group("bulk_chunks")
        .map(
            v -> {
              int items = v.get("items").asInt();
              int max = v.get("max").asInt();
              List<Integer> expected = new ArrayList<>();
              v.get("chunks").forEach(n -> expected.add(n.asInt()));
              return dynamicTest(
                  items + " items, max " + max + " -> " + expected,
                  () -> {
                    List<Integer> sizes = new ArrayList<>();
                    Chunks.of(IntStream.range(0, items).boxed().toList(), max)
                        .forEach(chunk -> sizes.add(chunk.size()));
                    assertEquals(expected, sizes);
                    // pushBulk sends exactly those requests and sums their answers.
                    List<Integer> sent = new ArrayList<>();
                    FakeTransport fake =
                        new FakeTransport()
                            .always(
                                r -> {
                                  int n = Json.MAPPER.readTree(r.body()).size();
                                  sent.add(n);
                                  return FakeTransport.response(
                                      200,
                                      "{\"received\":" + n + ",\"created\":" + n
                                          + ",\"existing\":0,\"assets_created\":1}",
                                      "application/json");
                                });
                    List<EdgeInput> edges =
                        IntStream.range(0, items).mapToObj(i -> EdgeInput.of("s" + i, "t" + i)).toList();
                    BulkResult total = client(fake).lineage().pushBulk(edges, max);
                    assertEquals(expected, sent);
                    assertEquals(new BulkResult(items, items, 0, expected.size()), total);
                  });
            });
  }

  @Test
  void webhookSignaturesNoteIsText() {
    JsonNode note = vectors.get("webhook_signatures_note");
    assertTrue(note != null && note.isTextual() && !note.asText().isBlank());
  }

  @TestFactory
  Stream<DynamicTest> webhookSignatures() {
    List<JsonNode> all = group("webhook_signatures").toList();
    return IntStream.range(0, all.size())
        .mapToObj(
            i -> {
              JsonNode v = all.get(i);
              boolean valid = v.get("valid").asBoolean();
              return dynamicTest(
                  "#" + i + " " + (valid ? "valid" : "invalid"),
                  () -> {
                    long ts = v.get("timestamp").asLong();
                    Map<String, String> headers =
                        Map.of(
                            "Webhook-Id", v.get("id").asText(),
                            "WEBHOOK-TIMESTAMP", String.valueOf(ts),
                            "webhook-signature", v.get("signature").asText());
                    byte[] body = v.get("body").asText().getBytes(StandardCharsets.UTF_8);
                    String secret = v.get("secret").asText();
                    Instant now = Instant.ofEpochSecond(ts);
                    if (valid) {
                      Event event =
                          Webhooks.verify(secret, headers, body, Webhooks.DEFAULT_TOLERANCE, now);
                      JsonNode envelope = new ObjectMapper().readTree(body);
                      assertEquals(envelope.get("id").asText(), event.id());
                      assertEquals(envelope.get("seq").asLong(), event.seq());
                      assertEquals(envelope.get("type").asText(), event.type());
                      assertEquals(envelope.get("actor").asText(), event.actor());
                      assertEquals(
                          OffsetDateTime.parse(envelope.get("occurred_at").asText()).toInstant(),
                          event.occurredAt());
                      assertEquals(
                          new ObjectMapper().convertValue(envelope.get("data"), Map.class), event.data());
                      // The same delivery, outside the tolerance, is refused.
                      assertThrows(
                          WebhookVerificationException.class,
                          () -> Webhooks.verify(secret, headers, body, Duration.ofMinutes(5), now.plusSeconds(301)));
                      assertThrows(
                          WebhookVerificationException.class,
                          () -> Webhooks.verify(secret, headers, body, Duration.ofMinutes(5), now.minusSeconds(301)));
                    } else {
                      WebhookVerificationException e =
                          assertThrows(
                              WebhookVerificationException.class,
                              () -> Webhooks.verify(secret, headers, body, Webhooks.DEFAULT_TOLERANCE, now));
                      assertInstanceOf(GovernanceException.class, e);
                    }
                  });
            });
  }

  static GovernanceClient client(FakeTransport fake) {
    return client(fake, 2);
  }

  static GovernanceClient client(FakeTransport fake, int retries) {
    return FakeTransport.client(fake, retries, d -> {});
  }
}
