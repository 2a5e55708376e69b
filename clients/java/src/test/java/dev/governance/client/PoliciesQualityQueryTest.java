package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.CypherQuery;
import dev.governance.client.model.CypherResult;
import dev.governance.client.model.DbtResultsSummary;
import dev.governance.client.model.EvaluationSummary;
import dev.governance.client.model.Policy;
import dev.governance.client.model.PolicyFilter;
import dev.governance.client.model.PolicyInput;
import dev.governance.client.model.PolicyKind;
import dev.governance.client.model.QualityResult;
import dev.governance.client.model.QualityRule;
import dev.governance.client.model.QualityRuleInput;
import dev.governance.client.model.Query;
import dev.governance.client.model.QueryFilter;
import dev.governance.client.model.QueryNode;
import dev.governance.client.model.QueryResult;
import dev.governance.client.model.QueryReturn;
import dev.governance.client.model.ResultInput;
import dev.governance.client.model.RuleFilter;
import dev.governance.client.model.RuleType;
import dev.governance.client.model.Selector;
import dev.governance.client.model.Traverse;
import dev.governance.client.model.Violation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Policies, quality rules and the query facility over a scripted transport. */
class PoliciesQualityQueryTest {
  private static final String POLICY =
      "{\"id\":\"pol_1\",\"name\":\"owners\",\"description\":null,\"kind\":\"require_owner\","
          + "\"enabled\":true,\"severity\":\"high\",\"selector\":{\"type\":\"table\","
          + "\"platform\":[\"snowflake\",\"bigquery\"],\"id_prefix\":\"wh.\"},\"params\":{},"
          + "\"version\":3,\"created_at\":\"2025-01-02T03:04:05.678Z\","
          + "\"updated_at\":\"2025-01-02T03:04:05.678Z\",\"evaluated_at\":null}";
  private static final String RULE =
      "{\"id\":\"qr_1\",\"asset_id\":\"a\",\"column\":\"c\",\"name\":\"n\",\"type\":\"not_null\","
          + "\"params\":{},\"severity\":\"error\",\"enabled\":true,\"status\":\"failing\","
          + "\"last_result\":{\"status\":\"fail\",\"observed_value\":3,\"message\":\"3 nulls\","
          + "\"run_at\":\"2025-01-02T03:04:05.000Z\",\"source\":\"api\"},\"origin\":\"api\","
          + "\"version\":2,\"created_at\":\"2025-01-02T03:04:05.000Z\","
          + "\"updated_at\":\"2025-01-02T03:04:05.000Z\"}";
  private static final String RESULT =
      "{\"id\":\"qres_1\",\"rule_id\":\"qr_1\",\"status\":\"fail\",\"observed_value\":0,"
          + "\"message\":null,\"run_at\":\"2025-01-02T03:04:05.123Z\","
          + "\"recorded_at\":\"2025-01-02T03:04:06.000Z\",\"source\":\"api\"}";

  private static GovernanceClient client(FakeTransport fake) {
    return VectorsTest.client(fake, 0);
  }

  private static JsonNode json(TransportRequest request) throws IOException {
    return FakeTransport.jsonOf(request);
  }

  @Test
  void policyRoundTripSendsOnlyWritableFieldsAndVersions() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .always(
                r ->
                    r.method().equals("DELETE")
                        ? FakeTransport.response(204, "", "text/plain")
                        : FakeTransport.response(r.method().equals("POST") ? 201 : 200, POLICY, "application/json"));
    PoliciesService policies = client(fake).policies();
    Policy read = policies.get("pol/1");
    assertEquals("/api/v1/policies/pol%2F1", fake.last().uri().getRawPath());
    assertEquals(List.of("table"), read.selector().type(), "one type reads as a list of one");
    assertEquals(List.of("snowflake", "bigquery"), read.selector().platform());
    assertEquals("wh.", read.selector().idPrefix());
    assertTrue(read.enabled());
    assertNull(read.evaluatedAt());
    assertEquals(3, read.version());

    policies.create(PolicyInput.builder("n", PolicyKind.TAG_PROPAGATION).param("tag", "pii").build());
    assertEquals(
        "{\"name\":\"n\",\"kind\":\"tag_propagation\",\"params\":{\"tag\":\"pii\"}}",
        FakeTransport.bodyOf(fake.last()));

    policies.replace(read.id(), read.toBuilder().description("d").build(), read.version());
    TransportRequest put = fake.last();
    assertEquals("PUT", put.method());
    assertEquals(Optional.of("\"3\""), put.header("If-Match"));
    JsonNode body = json(put);
    assertEquals("d", body.get("description").asText());
    assertEquals("require_owner", body.get("kind").asText());
    assertEquals("table", body.get("selector").get("type").get(0).asText());
    assertFalse(body.get("selector").has("tags"), "empty selector parts are left out");
    for (String readOnly : List.of("id", "version", "created_at", "updated_at", "evaluated_at")) {
      assertFalse(body.has(readOnly), readOnly + " was sent: " + body);
    }

    Map<String, Object> patch = new HashMap<>();
    patch.put("enabled", false);
    policies.patch(read.id(), patch, 4L);
    assertEquals(Optional.of("application/merge-patch+json"), fake.last().header("Content-Type"));
    assertEquals(Optional.of("\"4\""), fake.last().header("If-Match"));
    assertEquals("{\"enabled\":false}", FakeTransport.bodyOf(fake.last()));

    policies.delete(read.id(), 5L);
    assertEquals("DELETE", fake.last().method());
    assertEquals(Optional.of("\"5\""), fake.last().header("If-Match"));
  }

  @Test
  void policyListFiltersAndViolationsPageThroughCursors() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[" + POLICY + "],\"next_cursor\":null}")
            .thenJson(
                200,
                "{\"policy_id\":\"pol_1\",\"evaluated_at\":\"2025-01-02T03:04:05.000Z\",\"violations\":["
                    + "{\"asset_id\":\"a\",\"reason\":\"no owner\",\"opened_at\":\"2025-01-02T03:04:05.000Z\"}],"
                    + "\"next_cursor\":\"c1\"}")
            .thenJson(
                200,
                "{\"policy_id\":\"pol_1\",\"evaluated_at\":\"2025-01-02T03:04:05.000Z\",\"violations\":["
                    + "{\"asset_id\":\"b\",\"reason\":\"lacks tag\",\"path\":[\"x\",\"b\"],"
                    + "\"opened_at\":\"2025-01-02T03:04:05.000Z\"}],\"next_cursor\":null}");
    GovernanceClient client = client(fake);
    List<Policy> listed =
        client.policies().list(PolicyFilter.ofKind(PolicyKind.REQUIRE_OWNER).withEnabled(false)).pageSize(7)
            .stream().toList();
    assertEquals(1, listed.size());
    assertEquals("kind=require_owner&enabled=false&limit=7", fake.last().uri().getRawQuery());

    List<Violation> violations = client.policies().violations("pol_1").pageSize(1).stream().toList();
    assertEquals(List.of("a", "b"), violations.stream().map(Violation::assetId).toList());
    assertEquals(List.of(), violations.get(0).path());
    assertEquals(List.of("x", "b"), violations.get(1).path());
    assertEquals("/api/v1/policies/pol_1/violations", fake.last().uri().getRawPath());
    assertEquals("limit=1&cursor=c1", fake.last().uri().getRawQuery());

  }

  @Test
  void evaluateIsAPostWithAnIdempotencyKey() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(
                200,
                "{\"evaluated_at\":\"2025-01-02T03:04:05.000Z\",\"policies\":[{\"policy_id\":\"pol_1\","
                    + "\"violations\":2,\"opened\":1,\"resolved\":0}]}");
    GovernanceClient client =
        new GovernanceClient.Builder(name -> null).baseUrl("http://h").transport(fake).build();
    EvaluationSummary summary = client.policies().evaluate();
    assertEquals(2, summary.policy("pol_1").orElseThrow().violations());
    assertTrue(summary.policy("pol_2").isEmpty());
    assertEquals("POST", fake.last().method());
    assertEquals("/api/v1/policies/evaluate", fake.last().uri().getRawPath());
    assertTrue(fake.last().header("Idempotency-Key").isPresent());
  }

  @Test
  void ruleCrudResultsAndFilters() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[" + RULE + "],\"next_cursor\":null}")
            .thenJson(201, RULE)
            .thenJson(200, RULE)
            .thenJson(200, RULE)
            .then(r -> FakeTransport.response(204, "", "text/plain"))
            .thenJson(201, RESULT)
            .thenJson(200, "{\"items\":[" + RESULT + "],\"next_cursor\":\"r1\"}")
            .thenJson(200, "{\"items\":[" + RESULT + "],\"next_cursor\":null}");
    QualityService quality = client(fake).quality();
    QualityRule rule =
        quality.rules(RuleFilter.forAsset("a/b").withStatus("failing").withType(RuleType.NOT_NULL)).stream()
            .findFirst()
            .orElseThrow();
    assertEquals("asset_id=a%2Fb&status=failing&type=not_null", fake.last().uri().getRawQuery());
    assertTrue(rule.isFailing());
    assertEquals(3, rule.lastResult().observedValue());
    assertEquals("api", rule.origin());

    quality.createRule(QualityRuleInput.builder("a", "n", RuleType.ACCEPTED_VALUES).param("values", List.of("x")).build());
    assertEquals(
        "{\"asset_id\":\"a\",\"name\":\"n\",\"type\":\"accepted_values\",\"params\":{\"values\":[\"x\"]}}",
        FakeTransport.bodyOf(fake.last()));
    quality.replaceRule(rule.id(), rule.toBuilder().severity("warn").build(), rule.version());
    JsonNode put = json(fake.last());
    assertEquals(Optional.of("\"2\""), fake.last().header("If-Match"));
    assertEquals("warn", put.get("severity").asText());
    assertEquals("c", put.get("column").asText());
    assertFalse(put.has("status") || put.has("last_result") || put.has("version"), put.toString());
    quality.patchRule(rule.id(), Map.of("severity", "error"));
    assertEquals(Optional.of("application/merge-patch+json"), fake.last().header("Content-Type"));
    quality.deleteRule(rule.id(), 3L);
    assertEquals(Optional.of("\"3\""), fake.last().header("If-Match"));

    Instant run = Instant.parse("2025-01-02T03:04:05.123456789Z");
    QualityResult recorded = quality.recordResult("qr_1", ResultInput.fail(0, null).at(run));
    assertEquals("/api/v1/quality/rules/qr_1/results", fake.last().uri().getRawPath());
    assertEquals(
        "{\"status\":\"fail\",\"observed_value\":0,\"run_at\":\"2025-01-02T03:04:05.123Z\"}",
        FakeTransport.bodyOf(fake.last()));
    assertEquals(0, recorded.observedValue());
    assertEquals(Instant.parse("2025-01-02T03:04:05.123Z"), recorded.runAt());

    assertEquals(2, quality.results("qr_1").pageSize(1).stream().count());
    assertEquals("limit=1&cursor=r1", fake.last().uri().getRawQuery());
  }

  @Test
  void runResultsAreGzippedOnce(@TempDir Path dir) throws IOException {
    String summary =
        "{\"received\":3,\"recorded\":2,\"unmatched\":[\"test.x\"],\"skipped\":0,\"ignored\":1,"
            + "\"stale\":0,\"duplicates\":0,\"failed\":[\"test.y\"],\"recovered\":[]}";
    FakeTransport fake = new FakeTransport().thenJson(200, summary).thenJson(200, summary);
    byte[] plain = "{\"metadata\":{},\"results\":[]}".getBytes(StandardCharsets.UTF_8);
    Path file = Files.write(dir.resolve("run_results.json"), plain);
    DbtResultsSummary result = client(fake).quality().uploadRunResults(file);
    assertEquals(List.of("test.y"), result.failed());
    assertEquals(List.of("test.x"), result.unmatched());
    TransportRequest sent = fake.last();
    assertEquals("/api/v1/quality/results/dbt", sent.uri().getRawPath());
    assertEquals(Optional.of("gzip"), sent.header("Content-Encoding"));
    assertEquals(Optional.of("application/json"), sent.header("Content-Type"));
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(sent.body()))) {
      assertArrayEquals(plain, in.readAllBytes());
    }
    client(fake).quality().uploadRunResults(sent.body());
    assertArrayEquals(sent.body(), fake.last().body(), "gzipped bytes go as they are");
    assertThrows(IllegalArgumentException.class, () -> client(fake).quality().uploadRunResults(new byte[0]));
  }

  @Test
  void queryPagesResendTheSameBodyWithTheCursor() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .always(
                r -> {
                  JsonNode body = Json.MAPPER.readTree(r.body());
                  String cursor = body.path("cursor").asText("");
                  String next = cursor.isEmpty() ? "\"c1\"" : cursor.equals("c1") ? "\"c2\"" : "null";
                  return FakeTransport.response(
                      200,
                      "{\"nodes\":[{\"id\":\"n" + cursor + "\",\"name\":\"n\",\"type\":\"table\",\"tags\":[],"
                          + "\"placeholder\":false,\"distance\":1}],\"next_cursor\":" + next + "}",
                      "application/json");
                });
    Query query =
        Query.startAt("a")
            .withTraverse(
                Traverse.downstream()
                    .withMinDepth(0)
                    .withMaxDepth(3)
                    .withWhere(QueryFilter.builder().type("table").hasUpstream(true).property("tier", "gold", "silver").build()))
            .withLimit(1);
    QueryService service = client(fake).query();
    List<String> ids = service.nodes(query).stream().map(QueryNode::id).toList();
    assertEquals(List.of("n", "nc1", "nc2"), ids);
    assertEquals(
        "{\"start\":{\"ids\":[\"a\"]},\"traverse\":{\"direction\":\"downstream\",\"min_depth\":0,"
            + "\"max_depth\":3,\"where\":{\"type\":[\"table\"],\"has_upstream\":true,"
            + "\"properties\":{\"tier\":[\"gold\",\"silver\"]}}},\"return\":\"nodes\",\"limit\":1}",
        FakeTransport.bodyOf(fake.requests.get(0)));
    JsonNode second = json(fake.requests.get(1));
    assertEquals("c1", second.get("cursor").asText());
    assertEquals("nodes", second.get("return").asText());

    List<QueryResult> pages = service.pages(Query.startWhere(QueryFilter.any()).withReturn(QueryReturn.COUNT)).stream().limit(2).toList();
    assertEquals(2, pages.size());
    assertEquals("{\"start\":{\"where\":{}},\"return\":\"count\"}", FakeTransport.bodyOf(fake.requests.get(3)));
    assertEquals(5, fake.requests.size(), "a page is fetched only when iteration needs it");
  }

  @Test
  void cypherBodyAndRecords() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"columns\":[\"id\",\"n\"],\"rows\":[[\"a\",1],[\"b\",null]],\"truncated\":true}")
            .thenJson(200, "{\"columns\":[],\"rows\":[],\"truncated\":false}");
    QueryService service = client(fake).query();
    CypherResult result = service.cypher(CypherQuery.of("MATCH (a) RETURN a.id AS id, 1 AS n").withParameters(Map.of("p", "x")).withLimit(2));
    assertEquals(
        "{\"query\":\"MATCH (a) RETURN a.id AS id, 1 AS n\",\"parameters\":{\"p\":\"x\"},\"limit\":2}",
        FakeTransport.bodyOf(fake.last()));
    assertTrue(result.truncated());
    assertEquals("b", result.records().get(1).get("id"));
    assertNull(result.records().get(1).get("n"));
    service.cypher("RETURN 1");
    assertEquals("{\"query\":\"RETURN 1\"}", FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void aBadKindIsAValidationErrorWithItsLocation() {
    String problem =
        "{\"type\":\"/problems/validation_error\",\"title\":\"t\",\"status\":422,\"detail\":\"d\","
            + "\"instance\":\"/api/v1/policies\",\"code\":\"validation_error\",\"request_id\":\"r\","
            + "\"errors\":[{\"loc\":[\"body\",\"kind\"],\"msg\":\"Input should be ...\",\"type\":\"literal_error\"}]}";
    FakeTransport fake = new FakeTransport().then(r -> FakeTransport.response(422, problem, "application/problem+json"));
    ValidationException error =
        assertThrows(
            ValidationException.class,
            () -> client(fake).policies().create(PolicyInput.builder("n", null).kind("nope").selector(Selector.all()).build()));
    assertEquals(List.of("body", "kind"), error.errors().get(0).loc());
    assertEquals("{\"name\":\"n\",\"kind\":\"nope\",\"selector\":{}}", FakeTransport.bodyOf(fake.last()));
  }
}
